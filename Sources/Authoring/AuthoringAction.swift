extension Authoring {
  /// What can happen to Authoring.
  public enum Action: Equatable, Sendable {
    /// Sent by the application once, when it starts. Clears incoming shared grant storage
    /// (awaited before anything is read or validated, so a shared grant never becomes the
    /// context), then revalidates the persisted grant: valid → admitted and
    /// `.delegate(.grantValidated)`; invalid → the persisted grant is discarded and no context
    /// is set. Runs as ``AuthoringOperation/admission``.
    case restoreAuthorization

    /// Sent — and awaited — by the application when the session identity changes. Cancels
    /// in-flight admission work (its late answer is dropped), returns to `.notAdmitted`,
    /// discards the old grant from storage, and posts `.delegate(.grantInvalidated)` when there
    /// was a context.
    case authorizationInvalidated

    /// Sent — and awaited — by the application after a new valid session. Asks the admission
    /// policy about the current session: admitted → the new grant is persisted, the context set
    /// and `.delegate(.grantValidated)` posted; denied → `.denied(reason)`, no context (and
    /// `.delegate(.grantInvalidated)` if there was one). Cancels older admission work.
    case refreshAdmission

    /// The person asks to enter authoring. Does nothing when already admitted; otherwise the
    /// same as `refreshAdmission`.
    case requestAuthoring

    /// The person leaves authoring. Cancels admission work; when admitted, returns to
    /// `.notAdmitted`, posts `.delegate(.grantInvalidated)`, then discards and relinquishes the
    /// grant (``AuthoringOperation/relinquish``). Clears a standing denial.
    case leaveAuthoring

    /// Lifecycle events for the parent. Authoring does nothing on them.
    case delegate(Delegate)

    /// Lifecycle events Authoring posts right after it changed the validated grant: the state
    /// change is applied first, then the event is sent, in the same main-actor turn.
    public enum Delegate: Equatable, Sendable {
      /// A grant was validated (restored or newly admitted); this is now the context.
      case grantValidated(AuthoringContext)
      /// The validated grant is gone; there is no context any more.
      case grantInvalidated
    }
  }
}
