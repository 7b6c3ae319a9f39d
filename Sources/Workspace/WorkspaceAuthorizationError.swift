/// Thrown by a ``WorkspaceClient`` endpoint when the current authoring capability is no longer
/// valid.
///
/// Workspace never sees the capability itself: a client reads it through the capability
/// provider Authoring publishes into (`AuthoringCapabilityProvider`), checks it at every
/// external operation, and throws ``invalidated`` when there is none or the server no longer
/// honours it. ``Workspace`` reacts to the error: the requesting operation fails (its requester
/// hears it), then it posts `.delegate(.authorizationInvalidated)` for the parent (which tells
/// Authoring), cancels its other operations, keeps a ready session, and returns an interrupted
/// preparation to `inactive` (not `preparationFailed`).
public enum WorkspaceAuthorizationError: Error, Hashable, Sendable, Codable, CustomStringConvertible
{
  /// The capability the operation needed is no longer valid.
  case invalidated

  public var description: String {
    switch self {
    case .invalidated: "The authoring capability is no longer valid."
    }
  }
}
