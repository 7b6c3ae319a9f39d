import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessSupport

/// The generated repository of the `git` group, in a temporary directory removed by
/// ``remove()``:
///
/// ```text
/// <tmp>/composable-benchmarks-git-<uuid>/remote.git    bare remote, branch main: one commit
///                                                      of `files` files
/// <tmp>/composable-benchmarks-git-<uuid>/workspaces    the client's root
/// ```
///
/// The files are `dNNN/fNNN.txt`, 100 per directory (10,000 files: `d000`…`d099`), each three
/// short lines that name the file (about 60 bytes, every blob different).
struct GitBenchmarkRepository {
  let directory: URL
  let files: Int
  var remote: URL { directory.appendingPathComponent("remote.git", isDirectory: true) }
  var workspaces: URL { directory.appendingPathComponent("workspaces", isDirectory: true) }

  static let filesPerDirectory = 100

  /// Makes the bare remote and its one commit with `git fast-import` (one pack, no loose
  /// objects, no seed checkout: the fastest way git has to make 10,000 files).
  static func make(files: Int, git: GitProcess) async throws -> GitBenchmarkRepository {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("composable-benchmarks-git-\(UUID().uuidString)", isDirectory: true)
    let repository = GitBenchmarkRepository(directory: directory, files: files)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try await git.run(["init", "--quiet", "--bare", repository.remote.path])
      try await git.run(
        ["fast-import", "--quiet", "--done"], in: repository.remote,
        input: repository.fastImportStream())
    } catch {
      repository.remove()
      throw error
    }
    return repository
  }

  /// One commit on `refs/heads/main` holding every file.
  private func fastImportStream() -> Data {
    var stream = Data()
    func data(_ text: String) {
      let bytes = Data(text.utf8)
      stream.append(contentsOf: Data("data \(bytes.count)\n".utf8))
      stream.append(bytes)
      stream.append(0x0A)
    }
    stream.append(
      contentsOf: Data(
        "commit refs/heads/main\ncommitter Benchmark <bench@example.com> 1700000000 +0000\n".utf8))
    data("Generate \(files) files\n")
    for index in 0..<files {
      let path = Self.path(of: index)
      stream.append(contentsOf: Data("M 100644 inline \(path)\n".utf8))
      data("This is \(path),\none of \(files) generated files.\nThe end.\n")
    }
    stream.append(contentsOf: Data("\ndone\n".utf8))
    return stream
  }

  /// The path of file `index`: `dNNN/fNNN.txt`.
  static func path(of index: Int) -> String {
    let folder = index / filesPerDirectory
    let file = index % filesPerDirectory
    return String(format: "d%03d/f%03d.txt", folder, file)
  }

  /// The 10 files the benchmark changes: one per tenth of the repository, so they lie in 10
  /// different directories (for 10,000 files: d000/f000.txt, d010/f000.txt, …, d090/f000.txt).
  var changedPaths: [String] {
    (0..<10).map { Self.path(of: $0 * (files / 10)) }
  }

  /// Appends one line to each of ``changedPaths`` in `worktree`.
  func change(_ worktree: URL) throws {
    for path in changedPaths {
      let handle = try FileHandle(forWritingTo: worktree.appendingPathComponent(path))
      defer { try? handle.close() }
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("Changed by the benchmark.\n".utf8))
    }
  }

  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }
}

/// The `git` group's baseline: the same work as the Git client's capture and publication,
/// done with plain git commands as a careful script would, through the same `GitProcess`
/// (same executable, environment and `-c` settings, same `ProcessRunner` spawn).
///
/// It knows its worktree, reference repository and the worktree's index path (a script has
/// them at hand), so it does not validate them on every call as the client does.
struct PlainGit: Sendable {
  let git: GitProcess
  let worktree: URL
  let reference: URL
  /// The worktree's own index (`git rev-parse --git-path index`), copied for its stat cache.
  let index: URL

  /// Snapshots the worktree into a temporary index seeded with a copy of the worktree's index
  /// (`read-tree -m <base>`, `add --all -- .`, `write-tree`) and diffs the tree against
  /// `base` (`diff-tree -r -z -M --name-status --no-commit-id`): 4 git commands. Answers the
  /// tree and the `(status, path)` pairs.
  func capture(base: String) async throws -> (tree: String, changes: [(String, String)]) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("plain-git-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("index")
    try FileManager.default.copyItem(at: index, to: temporary)
    let environment = ["GIT_INDEX_FILE": temporary.path]
    try await git.run(["read-tree", "-m", base], in: worktree, environment: environment)
    try await git.run(["add", "--all", "--", "."], in: worktree, environment: environment)
    let tree = try await git.text(["write-tree"], in: worktree, environment: environment)
    let diff = try await git.run(
      ["diff-tree", "-r", "-z", "-M", "--name-status", "--no-commit-id", base, tree],
      in: reference)
    var fields = diff.standardOutput.split(separator: 0).map {
      String(decoding: $0, as: UTF8.self)
    }[...]
    var changes: [(String, String)] = []
    while let status = fields.popFirst(), let path = fields.popFirst() {
      changes.append((status, path))
    }
    return (tree, changes)
  }

  /// Publishes `tree` as a proposal on `branch`: asks the remote for the branch head and the
  /// proposal ref in one `ls-remote`, requires the ref to be absent and the head to be `base`,
  /// `commit-tree`s the tree with `base` as parent (the client's message and date stamping),
  /// and pushes it in one atomic push that creates `refs/proposals/<key>` only if it does not
  /// exist and only while the branch is at `base` (the client's push command): 3 git
  /// commands. Answers the commit.
  func publish(
    tree: String, base: String, branch: String, request: ProposalRequest
  ) async throws -> String {
    let key = request.idempotencyKey.uuidString.lowercased()
    let proposalRef = "refs/proposals/\(key)"
    let branchRef = "refs/heads/\(branch)"
    let listing = try await git.text(
      ["ls-remote", "origin", branchRef, proposalRef], in: reference)
    var remote: [String: String] = [:]
    for line in listing.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      if parts.count == 2 { remote[String(parts[1])] = String(parts[0]) }
    }
    try check(remote[proposalRef] == nil, "plain publish: \(proposalRef) already exists")
    try check(remote[branchRef] == base, "plain publish: \(branch) is not at \(base)")
    let message = """
      \(request.title)

      \(request.summary)

      Proposal-Key: \(key)
      Proposal-Target: \(branch)

      """
    let stamp = "\(Int64(Date().timeIntervalSince1970.rounded(.down))) +0000"
    let commit = try await git.text(
      ["commit-tree", tree, "-p", base, "-F", "-"], in: reference,
      environment: ["GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp],
      input: Data(message.utf8))
    try await git.run(
      [
        "push", "--porcelain", "--quiet", "--no-verify", "--atomic", "origin",
        "--force-with-lease=\(proposalRef):", "--force-with-lease=\(branchRef):\(base)",
        "\(commit):\(proposalRef)", "\(base):\(branchRef)",
      ],
      in: reference)
    return commit
  }
}
