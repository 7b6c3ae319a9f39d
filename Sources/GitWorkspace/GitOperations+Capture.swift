import ComposableWorkspace
import Foundation

extension GitOperations {
  /// Snapshots the worktree into a temporary index, writes it as a tree and diffs it against
  /// `baseline` (`git diff-tree -r -M`). The user's index, HEAD and files are untouched.
  func capture(_ source: GitWorkingCopy, against baseline: WorkspaceBranchReference) async throws
    -> GitChangeSet
  {
    let index = try await validate(source)
    guard let base = try await commit(baseline.revision, in: source.reference) else {
      throw GitWorkspaceError.unknownRevision(baseline)
    }
    let tree = try await withTemporaryIndex { temporary in
      try await snapshot(source, index: index, baseline: base, into: temporary)
      return try await git.text(
        ["write-tree"], in: source.worktree, environment: ["GIT_INDEX_FILE": temporary.path]
      )
    }
    let diff = try await git.run(
      ["diff-tree", "-r", "-z", "-M", "--name-status", "--no-commit-id", base, tree],
      in: source.reference
    )
    return GitChangeSet(
      baseline: base, tree: tree, changes: Self.parseNameStatus(diff.standardOutput))
  }

  /// Parses `git diff-tree -z --name-status` output: a status field, then one path (two for
  /// renames and copies), each NUL-terminated.
  static func parseNameStatus(_ output: Data) -> [GitFileChange] {
    var fields = output.split(separator: 0, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }[...]
    var changes: [GitFileChange] = []
    while let status = fields.popFirst(), let kind = status.first {
      switch kind {
      case "R":
        guard let from = fields.popFirst(), let to = fields.popFirst() else { return changes }
        changes.append(.renamed(from: from, to: to))
      case "C":
        guard fields.popFirst() != nil, let to = fields.popFirst() else { return changes }
        changes.append(.added(path: to))
      case "A":
        guard let path = fields.popFirst() else { return changes }
        changes.append(.added(path: path))
      case "D":
        guard let path = fields.popFirst() else { return changes }
        changes.append(.deleted(path: path))
      default:
        guard let path = fields.popFirst() else { return changes }
        changes.append(.modified(path: path))
      }
    }
    return changes
  }
}
