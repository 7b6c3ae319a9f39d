/// Whether the current application session is admitted to authoring — the single source of
/// truth for the validated capability.
///
/// There is deliberately no "checking" or "requesting" case: work in progress is an effect
/// tracked by ``AuthoringOperation`` (`store.isEffectInFlight(AuthoringOperation.admission)`),
/// not a state.
public enum AdmissionStatus: Equatable, Sendable, Codable {
  /// No validated capability and no standing refusal: nothing was asked yet, the person left
  /// authoring, or the identity changed.
  case notAdmitted
  /// Admitted, with the validated capability in force.
  case admitted(AuthoringContext)
  /// The policy refused the current session.
  case denied(AdmissionDenied)

  /// The validated capability, when admitted.
  public var context: AuthoringContext? {
    if case .admitted(let context) = self { context } else { nil }
  }
}
