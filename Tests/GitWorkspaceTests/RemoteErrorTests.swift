import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

@Suite("Remote failures", .requires(.git))
struct RemoteErrorTests {
  @Test func aNonexistentRemoteIsAGitErrorWithGitsMessage() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let missing = directory.url.appendingPathComponent("nowhere.git").path
    let git = GitWorkspaceClient(remote: missing, root: directory.child("root")) { .ada }
    let error = await #expect(throws: GitError.self) { try await git.prepareSource("x") }
    #expect(error?.status == 128)
    #expect(error?.arguments.first == "fetch")
    #expect(error?.message.contains("'\(missing)' does not appear to be a git repository") == true)
    #expect(
      WorkspaceFailure(try #require(error)).message.contains(
        "does not appear to be a git repository"))
  }

  @Test func aDirectoryThatIsNotARepositoryIsAGitErrorWithGitsMessage() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let plain = directory.child("plain")
    try write("not git\n", to: plain.appendingPathComponent("file.txt"))
    let git = GitWorkspaceClient(remote: plain.path, root: directory.child("root")) { .ada }
    let error = await #expect(throws: GitError.self) { try await git.prepareSource("x") }
    #expect(error?.message.contains("does not appear to be a git repository") == true)
    // Nothing half-made is left behind: a later preparation starts clean.
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: git.workingCopy(for: "x").reference.deletingLastPathComponent().path
    )
    #expect(leftovers == ["reference.git"] || leftovers.isEmpty)
  }

  @Test func aRemoteWithoutTheDefaultBranchIsATypedError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let remote = try await TestRemote.make(in: directory)
    let git = GitWorkspaceClient(remote: remote.path, root: remote.root, defaultBranch: "trunk") {
      .ada
    }
    await #expect(throws: GitWorkspaceError.branchNotFound("trunk", remote: remote.path)) {
      try await git.prepareSource("x")
    }
  }

  @Test func anOptionLikeRemoteIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let git = GitWorkspaceClient(remote: "--upload-pack=touch /tmp/pwned", root: directory.url) {
      .ada
    }
    await #expect(throws: GitWorkspaceError.invalidRemote("--upload-pack=touch /tmp/pwned")) {
      try await git.prepareSource("x")
    }
  }

  @Test func aSourceOfAnotherRemoteIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("mine")
    var foreign = session.source
    foreign.remote = "/elsewhere.git"
    await #expect(
      throws: GitWorkspaceError.remoteMismatch(
        expected: harness.remote.path, found: "/elsewhere.git")
    ) {
      try await harness.git.captureChanges(foreign, session.baseline)
    }
  }

  @Test func reviewerOperationsCheckAuthorizationToo() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    harness.capability.setValue(nil)
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await harness.git.listProposals()
    }
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await harness.git.merge(proposalID: UUID().uuidString)
    }
  }
}

@Suite("Error classification")
struct ErrorClassificationTests {
  @Test func unreachableRemotesAreTransientAndRejectionsAreNot() {
    let unreachable = GitError(
      arguments: ["fetch"], status: 128,
      message:
        "fatal: unable to access 'https://git.example.com/x.git/': Could not resolve host: git.example.com"
    )
    #expect(unreachable.isTransportFailure)
    let rejected = GitError(
      arguments: ["push"], status: 1,
      message:
        "error: atomic push failed for ref refs/heads/main. status: 7\nfatal: the remote end hung up unexpectedly\n!\tabc:refs/heads/main\t[rejected] (stale info)"
    )
    #expect(!rejected.isTransportFailure)
    let missing = GitError(
      arguments: ["fetch"], status: 128,
      message: "fatal: '/x' does not appear to be a git repository")
    #expect(!missing.isTransportFailure)
  }
}
