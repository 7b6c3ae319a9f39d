/// Thrown by a ``WorkspaceClient`` endpoint when the current authoring capability is no longer
/// valid.
///
/// Workspace never sees the capability itself: a client reads it through whatever the app
/// composed it with (a provider closure or a dependency), checks it at every external
/// operation, and throws ``invalidated`` when it is gone. ``Workspace`` reacts to the error:
/// it posts `.delegate(.authorizationInvalidated)` for the parent to decide what to do, cancels
/// its other operations, keeps a ready session, and returns an interrupted preparation to
/// `inactive` (not `preparationFailed`).
public enum WorkspaceAuthorizationError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The capability the operation needed is no longer valid.
  case invalidated

  public var description: String {
    switch self {
    case .invalidated: "The authoring capability is no longer valid."
    }
  }
}
