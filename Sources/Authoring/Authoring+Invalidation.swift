import ComposableCore

extension Authoring {
  /// `authorizationInvalidated`: the session identity changed.
  func invalidate(_ state: inout State) -> Effect<Action> {
    let previous = state.context
    state.admission = .notAdmitted
    let cancel = Effect<Action>.cancel(id: operation(.admission))
    guard let previous else { return cancel }
    let client = self.client
    return .merge(
      cancel,
      .send(.delegate(.grantInvalidated)),
      // Conditional on the grant, so it can never remove a grant persisted for the next identity.
      .run { _ in await client.discardPersistedGrant(previous.grant) }
    )
  }

  /// `grantRevoked`: the server stopped honouring the grant in force. The identity did not
  /// change, so the persisted grant is neither discarded nor relinquished here: only the
  /// authority's definite answer (`validate` throwing ``AuthoringGrantRejected`` at the next
  /// `restoreAuthorization`) discards it.
  func revoke(_ state: inout State) -> Effect<Action> {
    let cancel = Effect<Action>.cancel(id: operation(.admission))
    guard state.context != nil else { return cancel }
    state.admission = .notAdmitted
    return .merge(cancel, .send(.delegate(.grantInvalidated)))
  }

  /// `leaveAuthoring`: the person gives authoring up.
  func leave(_ state: inout State) -> Effect<Action> {
    let cancel = Effect<Action>.cancel(id: operation(.admission))
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
        .cancellable(id: operation(.relinquish))
      )
    }
  }
}
