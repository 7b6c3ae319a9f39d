import ComposableWorkspace
import Foundation
import ProcessSupport

/// The Git integration's operations, bound to one configuration and one authorized identity.
/// ``GitWorkspaceClient`` authorizes, then serializes each call per workspace and runs it here.
struct GitOperations: Sendable {
  let configuration: GitWorkspaceConfiguration
  let git: GitProcess

  /// The ref holding the installed baseline, `refs/workspace/baseline/<branch>` with the
  /// branch name as one component (`%` → `%25`, `/` → `%2F`, so switching between `feature`
  /// and `feature/x` never meets a directory/file conflict): branch and revision change
  /// together in one ref transaction.
  static let baselineNamespace = "refs/workspace/baseline/"

  static func baselineRef(for branch: BranchName) -> String {
    let component = branch.rawValue.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "/", with: "%2F")
    return baselineNamespace + component
  }

  static func branch(fromBaselineRef ref: String) -> BranchName {
    var name = ""
    var rest = Substring(ref.dropFirst(baselineNamespace.count))
    while let first = rest.first {
      if rest.hasPrefix("%2F") {
        name += "/"
        rest = rest.dropFirst(3)
      } else if rest.hasPrefix("%25") {
        name += "%"
        rest = rest.dropFirst(3)
      } else {
        name.append(first)
        rest = rest.dropFirst()
      }
    }
    return BranchName(name)
  }
  /// Remembered publication attempts, by idempotency key.
  static let attemptNamespace = "refs/workspace/attempts/"

  // MARK: Revisions and refs

  /// Whether git is asked what `spec` names: an empty name, one git would read as an option
  /// (`-…`) or one spanning lines (the batch protocol reads a name per line) names nothing.
  private static func isAskable(_ spec: String) -> Bool {
    !spec.isEmpty && !spec.hasPrefix("-") && !spec.contains(where: \.isNewline)
  }

  /// The full commit hash `spec` names in `repository`, or `nil` when it names none.
  func commit(_ spec: String, in repository: URL) async throws -> String? {
    guard Self.isAskable(spec) else { return nil }
    let result = try await git.run(
      ["rev-parse", "--verify", "--quiet", "\(spec)^{commit}"], in: repository,
      acceptedStatuses: [0, 1, 128]
    )
    let hash = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    return result.status == 0 && !hash.isEmpty ? hash : nil
  }

  /// The full commit hashes `specs` name in `repository`, in order (`nil` for one that names
  /// no commit), from one `git cat-file --batch-check`: one process however many names. The
  /// names ``commit(_:in:)`` does not ask about name nothing here either.
  func commits(_ specs: [String], in repository: URL) async throws -> [String?] {
    let asked = specs.map(Self.isAskable)
    let names = zip(specs, asked).filter(\.1).map { "\($0.0)^{commit}\n" }
    guard !names.isEmpty else { return specs.map { _ in nil } }
    let output = try await git.text(
      ["cat-file", "--batch-check"], in: repository, input: Data(names.joined().utf8))
    // One line per name: `<hash> commit <size>`, or `<name> missing` (or `ambiguous`).
    var answers = output.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
    return asked.map { asked -> String? in
      guard asked, let answer = answers.next() else { return nil }
      let fields = answer.split(separator: " ")
      guard fields.count == 3, fields[1] == "commit", fields[0].allSatisfy(\.isHexDigit) else {
        return nil
      }
      return String(fields[0])
    }
  }

  /// A commit's tree and parents.
  func treeAndParents(of commit: String, in repository: URL) async throws -> (
    tree: String, parents: [String]
  ) {
    let fields = try await git.text(["show", "-s", "--format=%T%n%P", commit], in: repository)
      .split(separator: "\n", omittingEmptySubsequences: false)
    let tree = fields.first.map(String.init) ?? ""
    let parents = fields.dropFirst().first.map { $0.split(separator: " ").map(String.init) } ?? []
    return (tree, parents)
  }

  /// The installed baseline recorded in `reference`, if one was recorded.
  func recordedBaseline(in reference: URL) async throws -> WorkspaceBranchReference? {
    let listing = try await git.text(
      ["for-each-ref", "--format=%(objectname) %(refname)", Self.baselineNamespace], in: reference
    )
    let lines = listing.split(separator: "\n")
    guard let line = lines.first else { return nil }
    guard lines.count == 1, let space = line.firstIndex(of: " ") else {
      throw GitWorkspaceError.notAWorkspace(
        path: reference.path, reason: "it records more than one installed baseline"
      )
    }
    let revision = String(line[..<space])
    let branch = Self.branch(fromBaselineRef: String(line[line.index(after: space)...]))
    return WorkspaceBranchReference(branch: branch, revision: revision)
  }

  /// Records `baseline` as the installed one, replacing the previous record atomically.
  func record(_ baseline: WorkspaceBranchReference, in reference: URL) async throws {
    let previous = try await recordedBaseline(in: reference)
    var commands = ""
    if let previous, previous.branch != baseline.branch {
      commands += "delete \(Self.baselineRef(for: previous.branch))\n"
    }
    commands += "update \(Self.baselineRef(for: baseline.branch)) \(baseline.revision)\n"
    try await git.run(
      ["update-ref", "-m", "workspace: install \(baseline)", "--stdin"], in: reference,
      input: Data(commands.utf8)
    )
  }

  // MARK: Remote

  /// Runs a command that talks to the remote; unreachable-remote failures become
  /// ``GitTransportError`` (retryable), every other failure stays a ``GitError``.
  @discardableResult
  func remote(_ arguments: [String], in repository: URL, input: Data? = nil) async throws
    -> ProcessResult
  {
    do {
      return try await git.run(arguments, in: repository, input: input)
    } catch let error as GitError where error.isTransportFailure {
      throw GitTransportError(error)
    }
  }

  /// The remote's current values of `refs` (missing refs are absent), in one round trip.
  func remoteRefs(_ refs: [String], in repository: URL) async throws -> [String: String] {
    let listing = try await remote(["ls-remote", "origin"] + refs, in: repository).outputText
    var values: [String: String] = [:]
    for line in listing.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      if parts.count == 2 { values[String(parts[1])] = String(parts[0]) }
    }
    return values
  }

  /// Fetches `branch` into `refs/remotes/origin/<branch>` and answers its head.
  func fetchHead(of branch: BranchName, into repository: URL) async throws -> String {
    let tracking = "refs/remotes/origin/\(branch)"
    do {
      try await remote(
        [
          "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "origin",
          "+refs/heads/\(branch):\(tracking)",
        ],
        in: repository
      )
    } catch let error as GitError where error.message.contains("couldn't find remote ref") {
      throw GitWorkspaceError.branchNotFound(branch, remote: configuration.remote)
    }
    guard let head = try await commit(tracking, in: repository) else {
      throw GitWorkspaceError.branchNotFound(branch, remote: configuration.remote)
    }
    return head
  }

  /// Throws unless `remote` is usable as a git remote argument.
  func validateRemote() throws {
    let remote = configuration.remote
    guard !remote.trimmingCharacters(in: .whitespaces).isEmpty, !remote.hasPrefix("-") else {
      throw GitWorkspaceError.invalidRemote(remote)
    }
  }

  /// Throws unless `branch` is a valid Git branch name.
  func validateBranchName(_ branch: BranchName) throws {
    guard GitBranchNameRules.isUsable(branch.rawValue) else {
      throw GitWorkspaceError.invalidBranchName(branch)
    }
  }

  // MARK: Working copies

  /// Checks that `source` is a working copy of this client's remote whose worktree is linked to
  /// its reference repository, and answers the worktree's index file.
  func validate(_ source: GitWorkingCopy) async throws -> URL {
    guard source.remote == configuration.remote else {
      throw GitWorkspaceError.remoteMismatch(expected: configuration.remote, found: source.remote)
    }
    let lines: [String]
    do {
      lines = try await git.text(
        ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-path", "index"],
        in: source.worktree
      ).split(separator: "\n").map(String.init)
    } catch let error as GitError {
      throw GitWorkspaceError.notAWorkspace(path: source.worktree.path, reason: error.message)
    }
    guard lines.count == 2, Self.samePath(lines[0], source.reference.path) else {
      throw GitWorkspaceError.notAWorkspace(
        path: source.worktree.path,
        reason: "it is not linked to the reference repository \(source.reference.path)"
      )
    }
    return URL(fileURLWithPath: lines[1])
  }

  /// Fills a temporary index with the worktree's content (tracked, modified, new
  /// not-ignored, deleted files) as compared with `baseline`, starting from the worktree's own
  /// index for its stat cache. The user's index is only read (copied).
  func snapshot(_ source: GitWorkingCopy, index: URL, baseline: String, into temporary: URL)
    async throws
  {
    let environment = ["GIT_INDEX_FILE": temporary.path]
    var seeded = false
    if FileManager.default.fileExists(atPath: index.path) {
      do {
        try FileManager.default.copyItem(at: index, to: temporary)
        // A one-tree merge keeps the stat data of entries that match the baseline.
        try await git.run(
          ["read-tree", "-m", baseline], in: source.worktree, environment: environment)
        seeded = true
      } catch is GitError {
        try? FileManager.default.removeItem(at: temporary)
      }
    }
    if !seeded {
      try await git.run(["read-tree", baseline], in: source.worktree, environment: environment)
    }
    try await git.run(["add", "--all", "--", "."], in: source.worktree, environment: environment)
  }

  /// Runs `body` with the URL of a fresh temporary index file, removed afterwards.
  func withTemporaryIndex<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("git-workspace-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory.appendingPathComponent("index"))
  }

  /// `GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE` for a commit stamped `date`.
  static func commitDates(_ date: Date) -> [String: String] {
    let stamp = "\(Int64(date.timeIntervalSince1970.rounded(.down))) +0000"
    return ["GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp]
  }

  static func samePath(_ lhs: String, _ rhs: String) -> Bool {
    func normalized(_ path: String) -> String {
      URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    return normalized(lhs) == normalized(rhs)
  }
}
