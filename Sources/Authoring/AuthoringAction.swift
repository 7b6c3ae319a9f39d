extension Authoring {
  /// What can happen to Authoring.
  public enum Action: Equatable, Sendable {
    /// Sent by the application once, when it starts. Fails closed: a context the state carried
    /// in is dropped at once (`.notAdmitted`, `.delegate(.grantInvalidated)`) — nothing is in
    /// force until validated now. Then clears incoming shared grant storage (awaited before
    /// anything is read or validated, so a shared grant never becomes the context) and
    /// revalidates the persisted grant: valid → admitted and `.delegate(.grantValidated)`;
    /// rejected (``AuthoringGrantRejected``) → the persisted grant is discarded; refused by the
    /// policy (``AdmissionDenied``) → discarded and `.denied(reason)`; not validated now
    /// (offline), or no persisted grant → not admitted, the grant kept for the next start.
    /// Runs as the ``AuthoringOperation/Kind/admission`` operation.
    case restoreAuthorization

    /// Sent — and awaited — by the application when the session identity changes. Cancels
    /// in-flight admission work (its late answer is dropped), returns to `.notAdmitted`,
    /// discards the old grant from storage, and posts `.delegate(.grantInvalidated)` when there
    /// was a context.
    case authorizationInvalidated

    /// The server stopped honouring the grant in force (a client answered
    /// `WorkspaceAuthorizationError.invalidated`); `AuthoringWorkspace` sends it when its
    /// workspace posts `.delegate(.authorizationInvalidated)`. Distinct from an identity change:
    /// it clears the context (`.notAdmitted`), cancels admission work and posts
    /// `.delegate(.grantInvalidated)`, but keeps the persisted grant (only `validate` rejecting
    /// it at the next start discards it) and relinquishes nothing. Without a context it only
    /// cancels admission work.
    case grantRevoked

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
    /// grant (the ``AuthoringOperation/Kind/relinquish`` operation). Clears a standing denial.
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
