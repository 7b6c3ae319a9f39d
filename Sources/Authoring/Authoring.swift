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
///   then, if the new session is valid, `await store.send(.refreshAdmission).finish()`.
///
/// Rules:
/// - ``State/admission`` is the one source of truth; ``State/context`` is derived from it and
///   read-only to wrapped content.
/// - Async results are applied to state directly (`state.modify`), never through response
///   actions. After the validated grant changes, Authoring posts
///   ``Action/Delegate/grantValidated(_:)`` or ``Action/Delegate/grantInvalidated``; the change
///   and its event happen in one main-actor turn, change first.
/// - Work that decides admission runs as ``AuthoringOperation/admission``: one at a time, the
///   newest wins, and `authorizationInvalidated` / `leaveAuthoring` cancel it. A cancelled
///   operation changes nothing and posts nothing, however late its answer arrives — so an
///   answer for a previous identity can never restore admission or capability.
/// - A shared grant never becomes the context through `restoreAuthorization`: incoming shared
///   grant storage is cleared (and the clear awaited) before the persisted grant is read.
/// - Authoring knows nothing of sessions, workspaces, sources, branches or proposals; it reaches
///   the application only through ``AuthoringClient``.
public struct Authoring: Reducer {
  @Dependency(AuthoringClient.self) var client

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .restoreAuthorization:
      return restore(hadContext: state.context != nil)
    case .authorizationInvalidated:
      return invalidate(&state)
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
}
