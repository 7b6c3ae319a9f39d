import ComposableCore
import ComposableWorkspace
import Foundation
import ProcessTestSupport
import Testing

@testable import GitWorkspace

@Suite("Publication", .requires(.git))
struct PublicationTests {
  @Test func aPushWhoseAnswerWasLostIsAnsweredByTheRetryWithExactlyOneRef() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("interrupted")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Interrupted")

    // The push step runs and lands on the remote; its answer is dropped.
    let operations = try await harness.git.authorized()
    let attempt = ProposalAttempt(
      key: attemptRequest.idempotencyKey, namespace: "refs/proposals",
      branch: session.baseline.branch, base: changes.baseline, tree: changes.tree
    )
    let pushed = try await operations.attemptCommit(
      attempt, remembered: nil, request: attemptRequest, in: session.source.reference)
    try await operations.push(pushed, for: attempt, in: session.source.reference)

    // The retry of the same attempt answers the record of what landed.
    let record = try await harness.git.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    #expect(
      record
        == ProposalRecord(
          id: attempt.proposalRef, contentRevision: pushed, target: session.baseline))
    #expect(try await harness.remote.proposalRefs() == [attempt.proposalRef])

    // Pushing the same attempt again is "up to date": the commit is the same hash.
    let remembered = try await operations.commit(attempt.attemptRef, in: session.source.reference)
    #expect(remembered == pushed)
    #expect(
      try await operations.attemptCommit(
        attempt, remembered: remembered, request: attemptRequest, in: session.source.reference)
        == pushed)
    try await operations.push(pushed, for: attempt, in: session.source.reference)
    #expect(try await harness.remote.proposalRefs() == [attempt.proposalRef])
  }

  @Test func aRetryAfterAnAttemptThatNeverPushedPushesTheRememberedCommit() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let remote = try await TestRemote.make(in: directory)
    // A clock that moves a minute per reading: a commit made again would get another hash.
    let clock = LockIsolated(Date(timeIntervalSince1970: 1_800_000_000))
    let client = GitWorkspaceClient(
      configuration: GitWorkspaceConfiguration(
        remote: remote.path, root: remote.root,
        now: {
          clock.withValue { now in
            now += 60
            return now
          }
        }),
      capability: { .ada })
    let session = try await client.prepareSource("never-pushed")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await client.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Never pushed")

    // The attempt's commit is made and remembered; the call ends before its push.
    let attempt = ProposalAttempt(
      key: attemptRequest.idempotencyKey, namespace: "refs/proposals",
      branch: session.baseline.branch, base: changes.baseline, tree: changes.tree
    )
    let made = try await client.authorized().attemptCommit(
      attempt, remembered: nil, request: attemptRequest, in: session.source.reference)

    let record = try await client.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    #expect(record.contentRevision == made, "the retry pushes the commit it made before")
    #expect(try await remote.proposalRefs() == [attempt.proposalRef])
  }

  @Test func retriesAnswerTheSameRecordAndTheProposalHasTheCapturedContent() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("retry")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    // Typing after the capture does not leak into the proposal: the captured tree is pushed.
    try append("typed later\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let attemptRequest = request("Retry")

    let first = try await harness.git.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    let second = try await harness.git.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    #expect(first == second)
    #expect(first.id == "refs/proposals/\(attemptRequest.idempotencyKey.uuidString.lowercased())")
    #expect(first.target == session.baseline)
    #expect(try await harness.remote.file("a.txt", at: first.contentRevision) == "alpha\nedit")
    let parent = try await harness.remote.git.text(
      ["rev-parse", "\(first.contentRevision)^"], in: harness.remote.remote)
    #expect(parent == session.baseline.revision)
    let author = try await harness.remote.git.text(
      ["show", "-s", "--format=%an <%ae>|%cn", first.contentRevision], in: harness.remote.remote)
    #expect(author == "ada@example.com <ada@example.com>|ada@example.com")
    #expect(try await harness.remote.proposalRefs().count == 1)
  }

  @Test func aMovedHeadThrowsTheMismatchAndCreatesNoRef() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("moved")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    let moved = try await harness.remote.commit(on: "main")

    await #expect(
      throws: WorkspaceHeadMismatch(
        expected: session.baseline,
        actual: WorkspaceBranchReference(branch: "main", revision: moved)
      )
    ) {
      try await harness.git.publishProposal(
        session.source, session.baseline, changes, request("Moved"))
    }
    #expect(try await harness.remote.proposalRefs().isEmpty)
  }

  @Test func aHeadMovingBetweenTheCheckAndThePushRejectsTheWholeAtomicPush() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("race")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Race")
    let operations = try await harness.git.authorized()
    let attempt = ProposalAttempt(
      key: attemptRequest.idempotencyKey, namespace: "refs/proposals",
      branch: "main", base: changes.baseline, tree: changes.tree
    )
    let commit = try await operations.attemptCommit(
      attempt, remembered: nil, request: attemptRequest, in: session.source.reference)
    try await harness.remote.commit(on: "main")
    let error = await #expect(throws: GitError.self) {
      try await operations.push(commit, for: attempt, in: session.source.reference)
    }
    #expect(error?.message.contains("stale info") == true)
    #expect(try await harness.remote.proposalRefs().isEmpty)
  }

  @Test func theSameKeyWithOtherContentIsAConflict() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("conflict")
    let file = session.source.worktree.appendingPathComponent("a.txt")
    try append("first\n", to: file)
    let first = try await harness.git.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Conflict")
    let record = try await harness.git.publishProposal(
      session.source, session.baseline, first, attemptRequest)
    try append("second\n", to: file)
    let second = try await harness.git.captureChanges(session.source, session.baseline)
    let error = await #expect(throws: GitWorkspaceError.self) {
      try await harness.git.publishProposal(
        session.source, session.baseline, second, attemptRequest)
    }
    guard case .proposalConflict(let id, let existing, let tree) = error else {
      Issue.record("expected a proposal conflict, got \(String(describing: error))")
      return
    }
    #expect(id == record.id)
    #expect(existing == record.contentRevision)
    #expect(tree == second.tree)
    #expect(try await harness.remote.proposalRefs() == [record.id])
  }

  @Test func aRetryAfterTheTargetMovedStillAnswersTheCreatedRecord() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("late-retry")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Late retry")
    let record = try await harness.git.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    try await harness.remote.commit(on: "main")
    // The record exists (the commit point passed): a retry answers it, not a mismatch.
    #expect(
      try await harness.git.publishProposal(
        session.source, session.baseline, changes, attemptRequest) == record)
  }

  @Test func emptyAndForeignChangeSetsAreRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("refused")
    let empty = try await harness.git.captureChanges(session.source, session.baseline)
    await #expect(throws: GitWorkspaceError.emptyChangeSet) {
      try await harness.git.publishProposal(
        session.source, session.baseline, empty, request("Empty"))
    }
    var foreign = empty
    foreign.changes = [.added(path: "x")]
    foreign.baseline = String(repeating: "0", count: 40)
    await #expect(
      throws: GitWorkspaceError.changeSetBaselineMismatch(
        changeSet: foreign.baseline, baseline: session.baseline)
    ) {
      try await harness.git.publishProposal(
        session.source, session.baseline, foreign, request("Foreign"))
    }
    #expect(try await harness.remote.proposalRefs().isEmpty)
  }

  @Test func aCapabilityRevokedBeforeThePushCreatesNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let remote = try await TestRemote.make(in: directory)
    // Capability reads: prepare, capture, publish's entry check — then it is gone when
    // publish checks again at the commit point, right before pushing.
    let reads = LockIsolated(0)
    let git = GitWorkspaceClient(remote: remote.path, root: remote.root) {
      reads.withValue { count in
        count += 1
        return count <= 3 ? .ada : nil
      }
    }
    let session = try await git.prepareSource("late-revocation")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await git.captureChanges(session.source, session.baseline)
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await git.publishProposal(session.source, session.baseline, changes, request("Late"))
    }
    #expect(try await remote.proposalRefs().isEmpty)
  }
}
