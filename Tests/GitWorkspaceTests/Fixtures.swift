import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import ComposableWorkspaceTesting
import Foundation
import GitWorkspace
import ProcessTestSupport

extension AuthoringContext {
  static let ada = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "ada@example.com"),
    grant: AuthoringGrant(rawValue: "grant-ada"),
    capabilities: [.edit, .publish]
  )
}

/// A bare remote seeded with `main` (README.md, a.txt, b.txt, old-name.txt, .gitignore
/// ignoring *.log) and `published` (main plus release.txt), and a seed clone that plays
/// "someone else" pushing to it.
struct TestRemote: Sendable {
  let remote: URL
  let seed: URL
  /// Where the client under test keeps its workspaces.
  let root: URL
  let git = GitProcess().withIdentity(GitSignature(name: "Someone Else", email: "else@example.com"))

  var path: String { remote.path }

  static func make(in directory: TemporaryDirectory) async throws -> TestRemote {
    let base = directory.child("fixture")
    let remote = TestRemote(
      remote: base.appendingPathComponent("remote.git"),
      seed: base.appendingPathComponent("seed"),
      root: base.appendingPathComponent("workspaces")
    )
    try await remote.seedRepositories()
    return remote
  }

  private func seedRepositories() async throws {
    try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
    try await git.run(["init", "--quiet", "--bare", remote.path])
    try await git.run(["init", "--quiet", "--initial-branch=main", seed.path])
    try write("README.md", "# Catalogue\n")
    try write("a.txt", "alpha\n")
    try write("b.txt", "bravo\n")
    try write(
      "old-name.txt", "a file long enough to be recognised after a move\nline two\nline three\n")
    try write(".gitignore", "*.log\n")
    try await git.run(["add", "--all"], in: seed)
    try await git.run(["commit", "--quiet", "-m", "Seed the catalogue"], in: seed)
    try await git.run(["remote", "add", "origin", remote.path], in: seed)
    try await git.run(["push", "--quiet", "origin", "main"], in: seed)
    try await git.run(["checkout", "--quiet", "-b", "published"], in: seed)
    try write("release.txt", "release 1\n")
    try await git.run(["add", "--all"], in: seed)
    try await git.run(["commit", "--quiet", "-m", "Publish release 1"], in: seed)
    try await git.run(["push", "--quiet", "origin", "published"], in: seed)
  }

  /// Someone else commits `content` to `file` on `branch` and pushes; answers the new head.
  @discardableResult
  func commit(
    on branch: BranchName, file: String = "remote-\(UUID().uuidString).txt",
    content: String = "from elsewhere\n"
  ) async throws -> String {
    try await git.run(
      ["fetch", "--quiet", "origin", "+refs/heads/*:refs/remotes/origin/*"], in: seed)
    try await git.run(["checkout", "--quiet", "-B", branch.rawValue, "origin/\(branch)"], in: seed)
    try write(file, content)
    try await git.run(["add", "--all"], in: seed)
    try await git.run(["commit", "--quiet", "-m", "Change \(file) elsewhere"], in: seed)
    try await git.run(["push", "--quiet", "origin", branch.rawValue], in: seed)
    return try await head(of: branch)
  }

  /// The remote's head of `branch`.
  func head(of branch: BranchName) async throws -> String {
    try await git.text(["rev-parse", "refs/heads/\(branch)"], in: remote)
  }

  /// The proposal refs the remote holds.
  func proposalRefs() async throws -> Set<String> {
    let listing = try await git.text(
      ["for-each-ref", "--format=%(refname)", "refs/proposals/"], in: remote)
    return Set(listing.split(separator: "\n").map(String.init))
  }

  /// The content of `path` in the remote's commit `revision`.
  func file(_ path: String, at revision: String) async throws -> String {
    try await git.text(["show", "\(revision):\(path)"], in: remote)
  }

  private func write(_ name: String, _ content: String) throws {
    try Data(content.utf8).write(to: seed.appendingPathComponent(name))
  }
}

/// A Git client on a fresh remote with a capability the test can revoke.
struct GitHarness: Sendable {
  let remote: TestRemote
  let capability: LockIsolated<AuthoringContext?>
  let git: GitWorkspaceClient

  static func make(in directory: TemporaryDirectory) async throws -> GitHarness {
    let remote = try await TestRemote.make(in: directory)
    let capability = LockIsolated<AuthoringContext?>(.ada)
    let git = GitWorkspaceClient(remote: remote.path, root: remote.root) { capability.current }
    return GitHarness(remote: remote, capability: capability, git: git)
  }

  /// The conformance-kit subject for this harness, with `client` in place of the Git client's.
  func subject(
    client: WorkspaceClient<GitWorkingCopy, GitChangeSet>? = nil,
    revoke: Bool = true
  ) -> WorkspaceContractSubject<GitWorkingCopy, GitChangeSet> {
    let remote = self.remote
    let capability = self.capability
    return WorkspaceContractSubject(
      client: client ?? git.client,
      workspaceID: "catalogue",
      otherBranch: "published",
      edit: { source in
        try append("edited by the kit\n", to: source.worktree.appendingPathComponent("a.txt"))
        return source
      },
      moveRemoteHead: { branch in try await remote.commit(on: branch) },
      revokeAuthorization: { if revoke { capability.setValue(nil) } },
      proposalIDs: { try await remote.proposalRefs() }
    )
    .comparingSources()
  }
}

func append(_ text: String, to file: URL) throws {
  let handle = try FileHandle(forWritingTo: file)
  defer { try? handle.close() }
  try handle.seekToEnd()
  try handle.write(contentsOf: Data(text.utf8))
}

func write(_ text: String, to file: URL) throws {
  try FileManager.default.createDirectory(
    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
  try Data(text.utf8).write(to: file)
}

func read(_ file: URL) throws -> String {
  String(decoding: try Data(contentsOf: file), as: UTF8.self)
}

func request(_ title: String, key: UUID = UUID()) -> ProposalRequest {
  ProposalRequest(title: title, summary: "A summary of \(title).", idempotencyKey: key)
}
