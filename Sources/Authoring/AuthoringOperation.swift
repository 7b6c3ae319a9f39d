/// Cancellation ids of Authoring's in-flight work, for `store.isEffectInFlight(_:)`.
///
/// Ids are relative to Authoring's scope: a parent that scopes Authoring asks the scoped store
/// (`store.scope(state: \.authoring, action: .authoring).isEffectInFlight(AuthoringOperation.admission)`).
public enum AuthoringOperation: Hashable, Sendable {
  /// Work that decides admission: `restoreAuthorization`'s revalidation, `refreshAdmission` and
  /// `requestAuthoring`. At most one runs at a time — a newer one cancels the older — and
  /// `authorizationInvalidated` and `leaveAuthoring` cancel it, so its late answer is dropped.
  case admission
  /// `leaveAuthoring` giving the grant up (discarding it from storage, relinquishing it at its
  /// issuer). It changes no state, so nothing needs to cancel it.
  case relinquish
}
