import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

@Suite("Preparation and baseline", .requires(.git))
struct BaselineTests {
  @Test func reopeningKeepsTheWorktreeAndTheRecordedBaseline() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("reopen")
    #expect(
      session.baseline
        == WorkspaceBranchReference(
          branch: "main", revision: try await harness.remote.head(of: "main")))
    #expect(session.source == harness.git.workingCopy(for: "reopen"))
    let file = session.source.worktree.appendingPathComponent("a.txt")
    try write("mine\n", to: file)
    try await harness.remote.commit(on: "main")

    // A new client instance (another launch of the app) reopens it.
    let relaunched = GitWorkspaceClient(remote: harness.remote.path, root: harness.remote.root) {
      .ada
    }
    let reopened = try await relaunched.prepareSource("reopen")
    #expect(reopened.source == session.source)
    #expect(reopened.baseline == session.baseline)
    #expect(try read(file) == "mine\n")
  }

  @Test func aDeletedWorktreeIsCheckedOutAgainAtTheRecordedBaseline() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("recreated")
    try await harness.remote.commit(on: "main")
    try FileManager.default.removeItem(at: session.source.worktree)
    let again = try await harness.git.prepareSource("recreated")
    #expect(again.baseline == session.baseline)
    #expect(try await harness.git.captureChanges(again.source, again.baseline).isEmpty)
  }

  @Test func somethingElseAtTheWorktreePathIsLeftUntouched() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let worktree = harness.git.workingCopy(for: "occupied").worktree
    try write("precious\n", to: worktree.appendingPathComponent("precious.txt"))
    await #expect {
      try await harness.git.prepareSource("occupied")
    } throws: { error in
      guard case .notAWorkspace(let path, _) = error as? GitWorkspaceError else { return false }
      return path == worktree.path
    }
    #expect(try read(worktree.appendingPathComponent("precious.txt")) == "precious\n")
  }

  @Test func workspaceIDsCannotEscapeTheRoot() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    for id: WorkspaceID in ["../escape", "/etc", ".hidden", "a/b", ""] {
      let copy = harness.git.workingCopy(for: id)
      #expect(
        copy.reference.deletingLastPathComponent().deletingLastPathComponent().path
          == harness.remote.root.standardizedFileURL.path)
    }
    #expect(harness.git.workingCopy(for: "a/b") != harness.git.workingCopy(for: "a%2Fb"))
    let session = try await harness.git.prepareSource("../escape")
    #expect(
      session.source.worktree.path.hasPrefix(harness.remote.root.standardizedFileURL.path + "/"))
  }

  @Test func refreshCarriesEditsOntoTheNewHeadAndKeepsTheBranch() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("refresh")
    let worktree = session.source.worktree
    try append("mine\n", to: worktree.appendingPathComponent("a.txt"))
    try write("untracked\n", to: worktree.appendingPathComponent("draft.txt"))
    let moved = try await harness.remote.commit(
      on: "main", file: "b.txt", content: "bravo, upstream\n")

    let refreshed = try await harness.git.refreshBaseline(session.source, session.baseline)
    #expect(refreshed == WorkspaceBranchReference(branch: "main", revision: moved))
    #expect(try read(worktree.appendingPathComponent("a.txt")) == "alpha\nmine\n")
    #expect(try read(worktree.appendingPathComponent("b.txt")) == "bravo, upstream\n")
    #expect(try read(worktree.appendingPathComponent("draft.txt")) == "untracked\n")
    let changes = try await harness.git.captureChanges(session.source, refreshed)
    #expect(changes.changes == [.modified(path: "a.txt"), .added(path: "draft.txt")])
    #expect(try await harness.remote.git.text(["rev-parse", "HEAD"], in: worktree) == moved)
    // The refreshed baseline is what a reopen answers now.
    #expect(try await harness.git.prepareSource("refresh").baseline == refreshed)
  }

  @Test func selectionInstallsExactlyTheRequestedBranch() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("select")
    let selected = try await harness.git.selectBranch(session.source, "published")
    #expect(
      selected
        == WorkspaceBranchReference(
          branch: "published", revision: try await harness.remote.head(of: "published")))
    #expect(
      try read(session.source.worktree.appendingPathComponent("release.txt")) == "release 1\n")
    #expect(try await harness.git.captureChanges(session.source, selected).isEmpty)
    #expect(try await harness.git.prepareSource("select").baseline == selected)
    let back = try await harness.git.selectBranch(session.source, "main")
    #expect(back == session.baseline)
    #expect(
      !FileManager.default.fileExists(
        atPath: session.source.worktree.appendingPathComponent("release.txt").path))
  }

  @Test func selectionRefusesToOverwriteConflictingEditsAndChangesNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("conflict")
    let worktree = session.source.worktree
    try await harness.remote.commit(on: "published", file: "a.txt", content: "alpha, published\n")
    try write("alpha, mine\n", to: worktree.appendingPathComponent("a.txt"))
    let statusBefore = try await harness.remote.git.text(["status", "--porcelain"], in: worktree)

    await #expect {
      try await harness.git.selectBranch(session.source, "published")
    } throws: { error in
      guard
        case .localEditsWouldBeOverwritten(let branch, let message) = error as? GitWorkspaceError
      else { return false }
      return branch == "published" && message.contains("a.txt")
    }
    #expect(try read(worktree.appendingPathComponent("a.txt")) == "alpha, mine\n")
    #expect(
      try await harness.remote.git.text(["status", "--porcelain"], in: worktree) == statusBefore)
    #expect(
      try await harness.remote.git.text(["rev-parse", "HEAD"], in: worktree)
        == session.baseline.revision)
    #expect(try await harness.git.prepareSource("conflict").baseline == session.baseline)
  }

  @Test func aMissingBranchIsATypedError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("missing")
    await #expect(throws: GitWorkspaceError.branchNotFound("nope", remote: harness.remote.path)) {
      try await harness.git.selectBranch(session.source, "nope")
    }
    await #expect(throws: GitWorkspaceError.invalidBranchName("bad..name")) {
      try await harness.git.selectBranch(session.source, "bad..name")
    }
  }
}
