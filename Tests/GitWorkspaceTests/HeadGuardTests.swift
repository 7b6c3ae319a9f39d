import ComposableCore
import ComposableWorkspace
import Foundation
import ProcessTestSupport
import Testing

@testable import GitWorkspace

/// The head rule under a real race: the remote's pre-receive hook holds the proposal push
/// (after its pack arrived, before any ref is written) while someone else pushes the branch.
@Suite("Head guard", .requires(.git))
struct HeadGuardTests {
  @Test func plainGitWithdrawsAProposalWhoseBranchMovedDuringThePushAndReportsTheRace() async throws
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let gate = try await PushGate(remote: harness.remote, directory: directory)
    let session = try await harness.git.prepareSource("race")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Race")

    let publication = Task {
      try await harness.git.publishProposal(
        session.source, session.baseline, changes, attemptRequest)
    }
    try await gate.waitUntilHeld()
    let moved = try await harness.remote.commit(on: "main")
    try gate.release()

    await #expect(
      throws: WorkspaceHeadMismatch(
        expected: session.baseline,
        actual: WorkspaceBranchReference(branch: "main", revision: moved))
    ) { try await publication.value }
    #expect(try await harness.remote.proposalRefs().isEmpty, "the raced proposal was not withdrawn")

    // Refresh, then retry the same attempt: one proposal, on the new head, under the same key.
    let refreshed = try await harness.git.refreshBaseline(session.source, session.baseline)
    let recaptured = try await harness.git.captureChanges(session.source, refreshed)
    let record = try await harness.git.publishProposal(
      session.source, refreshed, recaptured, attemptRequest)
    #expect(record.target.revision == moved)
    #expect(try await harness.remote.proposalRefs() == [record.id])
  }

  @Test func theRemoteHookRefusesAProposalWhoseBranchMovedBeforeItsRefWasWritten() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    try GitHeadGuardHook.install(in: harness.remote.remote)
    let git = harness.enforcedByTheRemote()
    let gate = try await PushGate(remote: harness.remote, directory: directory)
    let session = try await git.prepareSource("refused")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await git.captureChanges(session.source, session.baseline)

    let publication = Task {
      try await git.publishProposal(session.source, session.baseline, changes, request("Refused"))
    }
    try await gate.waitUntilHeld()
    let moved = try await harness.remote.commit(on: "main")
    try gate.release()

    await #expect(
      throws: WorkspaceHeadMismatch(
        expected: session.baseline,
        actual: WorkspaceBranchReference(branch: "main", revision: moved))
    ) { try await publication.value }
    #expect(try await harness.remote.proposalRefs().isEmpty)
  }

  @Test func theRemoteHookHoldsTheBranchWhileTheProposalIsCreated() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    // The guard, then a pause inside the proposal's transaction (the branch lock is held).
    let hooks = harness.remote.remote.appendingPathComponent("hooks")
    try Data(GitHeadGuardHook.script().utf8).write(to: hooks.appendingPathComponent("head-guard"))
    let held = directory.url.appendingPathComponent("held")
    let go = directory.url.appendingPathComponent("go")
    try await installExecutable(
      """
      #!/bin/sh
      input=$(cat)
      printf '%s\\n' "$input" | sh "$(dirname "$0")/head-guard" "$1" || exit 1
      case "$1:$input" in
      prepared:*refs/proposals/*)
        touch '\(held.path)'
        n=0
        while [ ! -e '\(go.path)' ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
        ;;
      esac
      exit 0
      """, at: hooks.appendingPathComponent(GitHeadGuardHook.name))
    let git = harness.enforcedByTheRemote()
    let session = try await git.prepareSource("held")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await git.captureChanges(session.source, session.baseline)

    let publication = Task {
      try await git.publishProposal(session.source, session.baseline, changes, request("Held"))
    }
    try await waitForFile(held)
    let refused = await #expect(throws: GitError.self) {
      try await harness.remote.commit(on: "main")
    }
    #expect(
      refused?.message.contains("cannot lock ref 'refs/heads/main'") == true,
      "\(String(describing: refused))")
    try Data().write(to: go)

    let record = try await publication.value
    #expect(record.target == session.baseline)
    #expect(try await harness.remote.head(of: "main") == session.baseline.revision)
    #expect(try await harness.remote.proposalRefs() == [record.id])
    // The lock was released: the branch moves again.
    try await harness.remote.commit(on: "main")
  }

  @Test func theHookRefusesAProposalWithoutATargetAndLetsOtherRefsAndDeletionsPass() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let remote = try await TestRemote.make(in: directory)
    try GitHeadGuardHook.install(in: remote.remote)
    #expect(GitHeadGuardHook.isInstalled(in: remote.remote))
    #expect(!GitHeadGuardHook.isInstalled(in: remote.remote, proposalNamespace: "refs/other"))
    let push = { (refspec: String) in
      _ = try await remote.git.run(["push", "--porcelain", "origin", refspec], in: remote.seed)
    }
    let error = await #expect(throws: GitError.self) {
      try await push("HEAD:refs/proposals/untargeted")
    }
    #expect(
      error?.message.contains("names no valid target branch") == true,
      "\(String(describing: error))")
    try await push("HEAD:refs/heads/other")
    try await push("HEAD:refs/notes/anything")
    #expect(try await remote.proposalRefs().isEmpty)

    // Installing twice is fine; over another hook it refuses.
    try GitHeadGuardHook.install(in: remote.remote)
    try await installExecutable(
      "#!/bin/sh\nexit 0\n", at: remote.remote.appendingPathComponent("hooks/reference-transaction")
    )
    #expect(throws: GitHeadGuardHookError.self) { try GitHeadGuardHook.install(in: remote.remote) }
    #expect(!GitHeadGuardHook.isInstalled(in: remote.remote))
  }

  @Test func aLockLeftByADeadReceivePackIsTakenOverAndNoOtherLockIsTouched() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    try GitHeadGuardHook.install(in: harness.remote.remote)
    let git = harness.enforcedByTheRemote()
    let lock = harness.remote.remote.appendingPathComponent("refs/heads/main.lock")
    // A process that has ended: its pid names no one.
    let dead = try await harness.remote.git.text(["-c", "alias.pid=!echo $$", "pid"])

    // Locks the guard must leave alone: a live holder's, and git's own (a commit id).
    let held: [(WorkspaceID, String)] = [
      ("held-live", "head-guard \(getpid())"), ("held-git", String(repeating: "a", count: 40)),
    ]
    for (workspace, content) in held {
      try Data((content + "\n").utf8).write(to: lock)
      let session = try await git.prepareSource(workspace)
      try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
      let changes = try await git.captureChanges(session.source, session.baseline)
      await #expect(throws: (any Error).self, "\(content) was taken over") {
        try await git.publishProposal(session.source, session.baseline, changes, request("Held"))
      }
      #expect(try String(contentsOf: lock, encoding: .utf8) == content + "\n")
    }

    // A head guard's lock whose receive-pack is gone: the branch is wedged for everyone…
    try Data("head-guard \(dead)\n".utf8).write(to: lock)
    await #expect(throws: GitError.self, "a push to main while the stale lock is there") {
      try await harness.remote.commit(on: "main")
    }
    // …until the next proposal push finds it stale, takes it over and releases it.
    let session = try await git.prepareSource("recovered")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await git.captureChanges(session.source, session.baseline)
    let proposal = try await git.publishProposal(
      session.source, session.baseline, changes, request("Recovered"))
    #expect(try await harness.remote.proposalRefs() == [proposal.id])
    #expect(!FileManager.default.fileExists(atPath: lock.path), "the lock was not released")
    try await harness.remote.commit(on: "main")
  }

  @Test func cancellingAPushNeverSignalsTheRemotesSide() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let held = directory.url.appendingPathComponent("held")
    let go = directory.url.appendingPathComponent("go")
    let signalled = directory.url.appendingPathComponent("signalled")
    let finished = directory.url.appendingPathComponent("finished")
    // The remote's pre-receive hook (a child of git receive-pack, itself git push's child on a
    // local remote) notes a termination signal, or its own end.
    try await installExecutable(
      """
      #!/bin/sh
      trap 'touch "\(signalled.path)"; exit 1' TERM INT HUP
      touch '\(held.path)'
      n=0
      while [ ! -e '\(go.path)' ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
      touch '\(finished.path)'
      exit 1
      """, at: harness.remote.remote.appendingPathComponent("hooks/pre-receive"))
    let git = harness.git
    let session = try await git.prepareSource("cancelled")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await git.captureChanges(session.source, session.baseline)
    let publication = Task {
      try await git.publishProposal(session.source, session.baseline, changes, request("Gone"))
    }
    try await waitForFile(held)
    // The cancellation handler signals at once; the hook notices a signal within 0.1 s, and
    // the go only after that.
    publication.cancel()
    try Data().write(to: go)
    _ = await publication.result
    try await waitForFile(finished)
    #expect(
      !FileManager.default.fileExists(atPath: signalled.path),
      "the remote's hook was signalled when the client's push was cancelled")
  }

  @Test func withTheHookAnUncontestedPublicationAndItsRetryAnswerOneRecord() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    try GitHeadGuardHook.install(in: harness.remote.remote)
    let git = harness.enforcedByTheRemote()
    let session = try await git.prepareSource("calm")
    try append("edit\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await git.captureChanges(session.source, session.baseline)
    let attemptRequest = request("Calm")
    let first = try await git.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    let second = try await git.publishProposal(
      session.source, session.baseline, changes, attemptRequest)
    #expect(first == second)
    #expect(try await harness.remote.proposalRefs() == [first.id])
    try await harness.remote.commit(on: "main")
  }
}

extension GitHarness {
  /// The same remote and workspaces, with the head rule left to the remote's hook.
  func enforcedByTheRemote() -> GitWorkspaceClient {
    var configuration = git.configuration
    configuration.headGuard = .remoteEnforced
    let capability = self.capability
    return GitWorkspaceClient(configuration: configuration) { capability.current }
  }
}

/// A pre-receive hook on the remote that holds every push creating a proposal (its pack has
/// arrived; no ref is written yet) until the test releases it; other pushes pass at once.
struct PushGate {
  let held: URL
  let go: URL

  init(remote: TestRemote, directory: TemporaryDirectory) async throws {
    held = directory.url.appendingPathComponent("gate-held")
    go = directory.url.appendingPathComponent("gate-go")
    try await installExecutable(
      """
      #!/bin/sh
      if grep -q ' refs/proposals/'; then
        touch '\(held.path)'
        n=0
        while [ ! -e '\(go.path)' ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
      fi
      exit 0
      """, at: remote.remote.appendingPathComponent("hooks/pre-receive"))
  }

  func waitUntilHeld() async throws { try await waitForFile(held) }

  /// Lets the held push, and every later one, through.
  func release() throws { try Data().write(to: go) }
}

/// Waits (bounded: 30 s) until `file` exists.
func waitForFile(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
  for _ in 0..<600 {
    if FileManager.default.fileExists(atPath: file.path) { return }
    try await Task.sleep(for: .milliseconds(50))
  }
  Issue.record("\(file.lastPathComponent) never appeared", sourceLocation: sourceLocation)
  throw CancellationError()
}
