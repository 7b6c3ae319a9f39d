import ComposableCore

/// Owns admission policy and the currently validated authoring capability
/// (``AuthoringContext``), and tells its parent when that capability changes.
///
/// ```swift
/// Scope(state: \.authoring, action: .authoring) { Authoring() }
/// ```
///
/// The application owns the lifecycle connections:
/// - when it starts: `store.send(.restoreAuthorization)`;
/// - when the session identity changes: `await store.send(.authorizationInvalidated).finish()`,
///   then, if the new session is valid, `await store.send(.refreshAdmission).finish()`;
/// - when the server stops honouring the grant (a client answered
///   `WorkspaceAuthorizationError.invalidated`): `.grantRevoked` (`AuthoringWorkspace` sends it
///   for its workspace).
///
/// Rules:
/// - ``State/admission`` is the one source of truth; ``State/context`` is derived from it and
///   read-only to wrapped content. Clients read the same capability from the
///   ``AuthoringCapabilityProvider`` Authoring publishes into, in the same main-actor turn as
///   every change of admission.
/// - Async results are applied to state directly (`state.modify`), never through response
///   actions. After the validated grant changes, Authoring posts
///   ``Action/Delegate/grantValidated(_:)`` or ``Action/Delegate/grantInvalidated``; the change
///   and its event happen in one main-actor turn, change first.
/// - Work that decides admission runs as ``AuthoringOperation/Kind/admission``: one at a time,
///   the newest wins, and `authorizationInvalidated`, `grantRevoked` and `leaveAuthoring` cancel
///   it. A cancelled operation changes nothing and posts nothing, however late its answer
///   arrives — so an answer for a previous identity can never restore admission or capability.
/// - `restoreAuthorization` fails closed: a context the state carried in is dropped at once, and
///   only a grant validated now (with the same policy admission applies) becomes the context.
/// - A shared grant never becomes the context through `restoreAuthorization`: incoming shared
///   grant storage is cleared (and the clear awaited) before the persisted grant is read.
/// - Authoring knows nothing of sessions, workspaces, sources, branches or proposals; it reaches
///   the application only through ``AuthoringClient``.
public struct Authoring: Reducer {
  @Dependency(AuthoringClient.self) var client
  @Dependency(AuthoringCapabilityProvider.self) var capability

  /// The name of this Authoring: the key of its operations (``AuthoringOperation``).
  public let id: AuthoringID

  /// Creates the feature.
  ///
  /// - Parameter id: its name, when several Authoring features are composed side by side
  ///   (their operations then stay apart). An app with one Authoring leaves it out.
  public init(id: AuthoringID = .main) {
    self.id = id
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    // Clients see exactly what this reduce leaves in force.
    defer { capability.publish(state.context) }
    switch action {
    case .restoreAuthorization:
      return restore(&state)
    case .authorizationInvalidated:
      return invalidate(&state)
    case .grantRevoked:
      return revoke(&state)
    case .refreshAdmission:
      return requestAdmission(hadContext: state.context != nil)
    case .requestAuthoring:
      guard state.context == nil else { return .none }
      return requestAdmission(hadContext: false)
    case .leaveAuthoring:
      return leave(&state)
    case .delegate:
      return .none
    }
  }

  /// This Authoring's `kind` operation.
  func operation(_ kind: AuthoringOperation.Kind) -> AuthoringOperation {
    AuthoringOperation(kind, of: id)
  }
}
