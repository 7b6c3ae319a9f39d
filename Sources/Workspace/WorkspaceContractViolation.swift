/// A ``WorkspaceClient`` answered something the integration contract forbids: another branch
/// than requested, a refresh that changed the branch, a record whose target is not the
/// installed baseline.
///
/// This is a programmer/protocol error. ``Workspace`` reports its message with `reportIssue`
/// (so it fails tests and is printed in apps) and does not install the output. The requesting
/// UI is told the operation failed with a ``WorkspaceFailure`` of kind
/// ``WorkspaceFailure/Kind/invalidIntegratorOutput`` whose message does not repeat the output;
/// a record with a wrong target (created past the commit point) is delivered as
/// ``PublicationOutcome/publishedInvalidRecord(_:)``. It never becomes workspace state.
public struct WorkspaceContractViolation: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule that was broken and what the client answered.
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
