import ComposableWorkspace

/// The Git integration's captured change set: the worktree's content as a tree object, the
/// baseline commit it was compared with, and the file changes between them.
///
/// Capturing writes the tree into the reference repository's object store (not into any
/// ref, index or HEAD of the user), so
/// ``/ComposableWorkspace/WorkspaceClient/publishProposal`` commits exactly what was captured,
/// even if the user keeps typing in between.
public struct GitChangeSet: WorkspaceChangeSet, Hashable, Codable, CustomStringConvertible {
  /// The full hash of the baseline commit the worktree was compared with.
  public var baseline: String
  /// The full hash of the tree object holding the captured worktree content.
  public var tree: String
  /// The differences, sorted by path as git reports them.
  public var changes: [GitFileChange]

  public init(baseline: String, tree: String, changes: [GitFileChange]) {
    self.baseline = baseline
    self.tree = tree
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
