/// A ``WorkspaceClient`` answered something the integration contract forbids: another branch
/// than requested, a refresh that changed the branch, a record whose target is not the
/// installed baseline.
///
/// This is a programmer/protocol error. ``Workspace`` reports it with `reportIssue` (so it
/// fails tests and is printed in apps), does not install the output, and tells the requesting
/// UI the operation failed with a ``WorkspaceFailure`` of kind
/// ``WorkspaceFailure/Kind/invalidIntegratorOutput``. It never becomes workspace state.
public struct WorkspaceContractViolation: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule that was broken and what the client answered.
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
