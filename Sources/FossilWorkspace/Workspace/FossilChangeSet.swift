import ComposableWorkspace

/// The Fossil integration's captured change set: the baseline check-in the editable copy was
/// compared with, and the files that differ.
///
/// Capturing stores each changed file's content under the working copy's `captured/` folder,
/// named by its SHA-256, so publishing sends exactly what was captured even if the user keeps
/// typing.
public struct FossilChangeSet: WorkspaceChangeSet, Hashable, Codable, CustomStringConvertible {
  /// The baseline check-in's full hash.
  public var baseline: String
  /// The differences, sorted by path.
  public var changes: [FossilFileChange]

  public init(baseline: String, changes: [FossilFileChange]) {
    self.baseline = baseline
    self.changes = changes
  }

  /// No file differs from the baseline.
  public var isEmpty: Bool { changes.isEmpty }

  public var description: String {
    changes.isEmpty
      ? "no changes against \(baseline)"
      : changes.map(\.description).joined(separator: "\n")
  }
}

/// One file that differs from the baseline. Paths are relative to the editable copy's root,
/// with `/` separators.
public enum FossilFileChange: Hashable, Sendable, Codable, CustomStringConvertible {
  /// A file the baseline does not have; `content` is the SHA-256 (hex) of what was captured.
  case added(path: String, content: String, executable: Bool)
  /// A baseline file whose content or executable bit differs.
  case modified(path: String, content: String, executable: Bool)
  /// A baseline file that is gone from the editable copy.
  case deleted(path: String)

  /// The file's path.
  public var path: String {
    switch self {
    case .added(let path, _, _), .modified(let path, _, _), .deleted(let path): path
    }
  }

  public var description: String {
    switch self {
    case .added(let path, _, _): "A \(path)"
    case .modified(let path, _, _): "M \(path)"
    case .deleted(let path): "D \(path)"
    }
  }
}
