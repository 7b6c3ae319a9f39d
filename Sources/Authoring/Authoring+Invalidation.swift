import ComposableCore

extension Authoring {
  /// `authorizationInvalidated`: the session identity changed.
  func invalidate(_ state: inout State) -> Effect<Action> {
    let previous = state.context
    state.admission = .notAdmitted
    let cancel = Effect<Action>.cancel(id: AuthoringOperation.admission)
    guard let previous else { return cancel }
    let client = self.client
    return .merge(
      cancel,
      .send(.delegate(.grantInvalidated)),
      // Conditional on the grant, so it can never remove a grant persisted for the next identity.
      .run { _ in await client.discardPersistedGrant(previous.grant) }
    )
  }

  /// `leaveAuthoring`: the person gives authoring up.
  func leave(_ state: inout State) -> Effect<Action> {
    let cancel = Effect<Action>.cancel(id: AuthoringOperation.admission)
    switch state.admission {
    case .notAdmitted:
      return cancel
    case .denied:
      state.admission = .notAdmitted
      return cancel
    case .admitted(let context):
      state.admission = .notAdmitted
      let client = self.client
      return .merge(
        cancel,
        .send(.delegate(.grantInvalidated)),
        .run { _ in
          await client.discardPersistedGrant(context.grant)
          await client.relinquish(context.grant)
        }
        .cancellable(id: AuthoringOperation.relinquish)
      )
    }
  }
}
