import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

@Suite("Review: list and merge", .requires(.git))
struct ReviewTests {
  @Test func mergeFastForwardsThenMergesAnIndependentProposal() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let git = harness.git

    // Two independent proposals against the same baseline, from two workspaces.
    let first = try await git.prepareSource("first")
    try append("first\n", to: first.source.worktree.appendingPathComponent("a.txt"))
    let firstRecord = try await git.publishProposal(
      first.source, first.baseline, try await git.captureChanges(first.source, first.baseline),
      ProposalRequest(
        title: "First", summary: "The first change.\n\nIn two paragraphs.", idempotencyKey: UUID())
    )
    let second = try await git.prepareSource("second")
    try write("new\n", to: second.source.worktree.appendingPathComponent("second.txt"))
    let secondRecord = try await git.publishProposal(
      second.source, second.baseline, try await git.captureChanges(second.source, second.baseline),
      request("Second")
    )

    let listed = try await git.listProposals()
    #expect(Set(listed.map(\.record)) == [firstRecord, secondRecord])
    let firstListed = try #require(listed.first { $0.record == firstRecord })
    #expect(firstListed.title == "First")
    #expect(firstListed.summary == "The first change.\n\nIn two paragraphs.")
    #expect(firstListed.author == "ada@example.com <ada@example.com>")
    #expect(listed.allSatisfy { !$0.isMerged })

    // The first lands as a fast-forward.
    let afterFirst = try await git.merge(proposalID: firstRecord.id)
    #expect(
      afterFirst == WorkspaceBranchReference(branch: "main", revision: firstRecord.contentRevision))
    #expect(try await harness.remote.head(of: "main") == firstRecord.contentRevision)
    // Merging it again changes nothing.
    #expect(try await git.merge(proposalID: firstRecord.id) == afterFirst)

    // The second needs a merge commit (main moved); the bare key works as an id too.
    let key = String(secondRecord.id.dropFirst("refs/proposals/".count))
    let afterSecond = try await git.merge(proposalID: key)
    let parents = try await harness.remote.git.text(
      ["show", "-s", "--format=%P", afterSecond.revision], in: harness.remote.remote)
    #expect(parents == "\(firstRecord.contentRevision) \(secondRecord.contentRevision)")
    #expect(try await harness.remote.file("a.txt", at: afterSecond.revision) == "alpha\nfirst")
    #expect(try await harness.remote.file("second.txt", at: afterSecond.revision) == "new")
    #expect(try await git.listProposals().allSatisfy(\.isMerged))

    // The first workspace refreshes Published after the merges: its edit is in, nothing to propose.
    let refreshed = try await git.refreshBaseline(first.source, first.baseline)
    #expect(refreshed == afterSecond)
    #expect(try await git.captureChanges(first.source, refreshed).isEmpty)
  }

  @Test func aConflictingProposalIsNotMerged() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let git = harness.git
    let session = try await git.prepareSource("conflicting")
    try write("alpha, proposed\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let record = try await git.publishProposal(
      session.source, session.baseline,
      try await git.captureChanges(session.source, session.baseline),
      request("Conflicting")
    )
    let head = try await harness.remote.commit(
      on: "main", file: "a.txt", content: "alpha, upstream\n")
    await #expect {
      try await git.merge(proposalID: record.id)
    } throws: { error in
      guard case .mergeConflict(let proposal, let message) = error as? GitWorkspaceError else {
        return false
      }
      return proposal == record.id && message.contains("a.txt")
    }
    #expect(try await harness.remote.head(of: "main") == head)
  }

  @Test func anUnknownProposalIsATypedError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    await #expect(throws: GitWorkspaceError.proposalNotFound("not-a-key")) {
      try await harness.git.merge(proposalID: "not-a-key")
    }
    let missing = "refs/proposals/\(UUID().uuidString.lowercased())"
    await #expect(throws: GitWorkspaceError.proposalNotFound(missing)) {
      try await harness.git.merge(proposalID: missing)
    }
  }
}
