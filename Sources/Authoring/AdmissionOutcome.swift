import ComposableCore

/// What one admission-deciding operation concluded.
enum AdmissionOutcome: Sendable {
  /// A grant was validated, or the session admitted.
  case admitted(AuthoringContext)
  /// The policy refused the session.
  case denied(AdmissionDenied)

  /// Applies the outcome, publishes it to clients and posts its lifecycle event in one
  /// main-actor turn: nothing (in particular the cancellation `authorizationInvalidated`
  /// performs) can run between the state change and the event, so the parent sees either both
  /// or neither.
  ///
  /// - Parameter hadContext: whether a context was in force when the operation started. It is
  ///   still so now: every other change of admission cancels the operation first, and a
  ///   cancelled operation applies nothing.
  func apply(
    hadContext: Bool,
    to state: StateModifier<Authoring.State>,
    publishingTo capability: AuthoringCapabilityProvider,
    send: Send<Authoring.Action>
  ) async {
    await MainActor.run {
      guard !Task.isCancelled else { return }
      switch self {
      case .admitted(let context):
        state.modify { $0.admission = .admitted(context) }
        capability.publish(context)
        send(.delegate(.grantValidated(context)))
      case .denied(let denial):
        state.modify { $0.admission = .denied(denial) }
        capability.publish(nil)
        if hadContext { send(.delegate(.grantInvalidated)) }
      }
    }
  }
}
