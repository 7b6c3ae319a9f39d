/// One file-level difference between the worktree and the baseline, as `git diff-tree -M`
/// reports it. Paths are relative to the worktree root, with `/` separators.
public enum GitFileChange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// A file the baseline does not have (including untracked, not-ignored files).
  case added(path: String)
  /// A file whose content, mode or type differs from the baseline's.
  case modified(path: String)
  /// A baseline file that is gone from the worktree.
  case deleted(path: String)
  /// A baseline file moved to another path (possibly with edits), detected by similarity.
  case renamed(from: String, to: String)

  /// The path the change leaves in the worktree (the new path of a rename; the removed path
  /// of a deletion).
  public var path: String {
    switch self {
    case .added(let path), .modified(let path), .deleted(let path): path
    case .renamed(_, let to): to
    }
  }

  public var description: String {
    switch self {
    case .added(let path): "A \(path)"
    case .modified(let path): "M \(path)"
    case .deleted(let path): "D \(path)"
    case .renamed(let from, let to): "R \(from) -> \(to)"
    }
  }
}
