import ComposableCore

extension Workspace {
  func interruptAuthorizedWork(_ state: inout State) -> Effect<Action> {
    if case .preparing = state.availability {
      // An interrupted preparation leaves no coherent session.
      state.availability = .inactive
    }
    // The requesters hear it from this action itself: an operation cancelled before its task
    // began never runs, so it could never tell them.
    return .merge(
      .merge(WorkspaceOperation.all(of: state.id).map { Effect<Action>.cancel(id: $0) }),
      .send(.delegate(.interrupted))
    )
  }
}

func isAuthorizationInvalidated(_ error: any Error) -> Bool {
  (error as? WorkspaceAuthorizationError) == .invalidated
}

/// Tells the parent, then cancels every operation (this one included, which is ending anyway).
/// The delegate goes first: a cancelled effect's sends are dropped.
@MainActor
func authorizationLost<Source: Sendable, ChangeSet: WorkspaceChangeSet>(
  _ send: Send<Workspace<Source, ChangeSet>.Action>
) {
  send(.delegate(.authorizationInvalidated))
  send(.interruptAuthorizedWork)
}
