/// Thrown by ``WorkspaceClient/publishProposal`` before it creates a record, when the proposal's
/// target branch moved away from the baseline the changes were captured against.
///
/// ``Workspace`` delivers it unchanged to the proposal form as
/// `.delegate(.publication(.headMoved(mismatch)))`; the ready session is kept, and the form can
/// offer to refresh the baseline and publish again.
public struct WorkspaceHeadMismatch: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The head the publication was captured against (the installed baseline).
  public var expected: WorkspaceBranchReference
  /// The head the remote has now.
  public var actual: WorkspaceBranchReference

  public init(expected: WorkspaceBranchReference, actual: WorkspaceBranchReference) {
    self.expected = expected
    self.actual = actual
  }

  public var description: String {
    "The remote head moved: expected \(expected), found \(actual)."
  }
}
