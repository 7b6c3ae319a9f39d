import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

@Suite("Capture", .requires(.git))
struct CaptureTests {
  @Test func detectsModifiedAddedDeletedAndRenamedFilesWithoutTouchingIndexOrHead() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("capture")
    let worktree = session.source.worktree
    let git = harness.remote.git

    try append("changed\n", to: worktree.appendingPathComponent("a.txt"))
    try FileManager.default.removeItem(at: worktree.appendingPathComponent("b.txt"))
    try write("brand new\n", to: worktree.appendingPathComponent("notes/new.txt"))
    try FileManager.default.moveItem(
      at: worktree.appendingPathComponent("old-name.txt"),
      to: worktree.appendingPathComponent("renamed.txt")
    )
    try write("ignored\n", to: worktree.appendingPathComponent("debug.log"))
    // Something the user staged on purpose must stay staged.
    try await git.run(["add", "a.txt"], in: worktree)

    let statusBefore = try await git.text(["status", "--porcelain"], in: worktree)
    let stagedBefore = try await git.text(["diff", "--cached", "--name-status"], in: worktree)
    let headBefore = try await git.text(["rev-parse", "HEAD"], in: worktree)

    let changes = try await harness.git.captureChanges(session.source, session.baseline)

    #expect(
      changes.changes == [
        .modified(path: "a.txt"),
        .deleted(path: "b.txt"),
        .added(path: "notes/new.txt"),
        .renamed(from: "old-name.txt", to: "renamed.txt"),
      ])
    #expect(changes.baseline == session.baseline.revision)
    #expect(!changes.isEmpty)
    #expect(try await git.text(["status", "--porcelain"], in: worktree) == statusBefore)
    #expect(
      try await git.text(["diff", "--cached", "--name-status"], in: worktree) == stagedBefore)
    #expect(try await git.text(["rev-parse", "HEAD"], in: worktree) == headBefore)
    #expect(statusBefore.contains("?? notes/"))
  }

  @Test func anUneditedWorktreeHasNoChangesAndTheTreeIsTheBaselines() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("clean")
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    #expect(changes.isEmpty)
    let baselineTree = try await harness.remote.git.text(
      ["rev-parse", "\(session.baseline.revision)^{tree}"], in: session.source.reference
    )
    #expect(changes.tree == baselineTree)
  }

  @Test func localCommitsCountAsEditsAgainstTheBaseline() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("committed")
    let worktree = session.source.worktree
    try write("committed locally\n", to: worktree.appendingPathComponent("local.txt"))
    try await harness.remote.git.run(["add", "local.txt"], in: worktree)
    try await harness.remote.git.run(["commit", "--quiet", "-m", "local"], in: worktree)
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    #expect(changes.changes == [.added(path: "local.txt")])
  }

  @Test func anUnknownBaselineRevisionIsATypedError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("unknown")
    let bogus = WorkspaceBranchReference(
      branch: "main", revision: String(repeating: "1", count: 40))
    await #expect(throws: GitWorkspaceError.unknownRevision(bogus)) {
      try await harness.git.captureChanges(session.source, bogus)
    }
  }
}
