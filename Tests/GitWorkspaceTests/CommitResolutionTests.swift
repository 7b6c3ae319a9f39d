import ComposableWorkspace
import Foundation
import ProcessTestSupport
import Testing

@testable import GitWorkspace

/// Publication resolves its baseline and its remembered attempt in one git process.
@Suite("Commit resolution")
struct CommitResolutionTests {
  @Test(
    "Several names resolve to their commits in one call, in order; the others to nil",
    .requires(.git))
  func resolvesInOrder() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let remote = try await TestRemote.make(in: directory)
    let operations = GitOperations(
      configuration: GitWorkspaceConfiguration(remote: remote.path, root: remote.root),
      git: GitProcess())
    let main = try await remote.head(of: "main")
    let published = try await remote.head(of: "published")
    let tree = try await remote.git.text(["rev-parse", "main^{tree}"], in: remote.remote)

    let names = [
      "main", "refs/nope", published, "-main", "main\nmain", "", tree, "published~1",
      String(main.prefix(12)),
    ]
    let resolved = try await operations.commits(names, in: remote.remote)

    #expect(resolved == [main, nil, published, nil, nil, nil, nil, main, main])
    for (name, hash) in zip(names, resolved) {
      #expect(
        try await operations.commit(name, in: remote.remote) == hash, "\(name.debugDescription)")
    }
  }

  @Test("No name to ask starts no process and answers nil for each")
  func nothingToAsk() async throws {
    let operations = GitOperations(
      configuration: GitWorkspaceConfiguration(
        remote: "/nonexistent", root: URL(fileURLWithPath: "/nonexistent")),
      git: GitProcess(executable: URL(fileURLWithPath: "/nonexistent/git")))
    #expect(try await operations.commits(["", "-x"], in: URL(fileURLWithPath: "/")) == [nil, nil])
  }
}
