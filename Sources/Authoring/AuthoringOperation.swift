/// One operation of one ``Authoring`` feature, which is also its cancellable effect id, for
/// `store.isEffectInFlight(_:)`:
///
/// ```swift
/// store.isEffectInFlight(AuthoringOperation.admission)               // Authoring()
/// store.isEffectInFlight(AuthoringOperation.admission(of: "events"))  // Authoring(id: "events")
/// ```
///
/// An id carries its Authoring's ``AuthoringID``, so two Authoring features composed side by
/// side (under two `Scope`s, which share their parent's cancellation ids) never cancel each
/// other's work. `AuthoringWorkspace` gives its Authoring the workspace's id.
public struct AuthoringOperation: Hashable, Sendable, CustomStringConvertible {
  /// What kind of operation.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// Work that decides admission: `restoreAuthorization`'s revalidation, `refreshAdmission`
    /// and `requestAuthoring`. At most one runs at a time — a newer one cancels the older — and
    /// `authorizationInvalidated`, `grantRevoked` and `leaveAuthoring` cancel it, so its late
    /// answer is dropped.
    case admission
    /// `leaveAuthoring` giving the grant up (discarding it from storage, relinquishing it at its
    /// issuer). It changes no state, so nothing needs to cancel it.
    case relinquish
  }

  /// What kind of operation.
  public let kind: Kind
  /// The Authoring it belongs to.
  public let authoring: AuthoringID

  /// The `kind` operation of the Authoring named `authoring`.
  public init(_ kind: Kind, of authoring: AuthoringID) {
    self.kind = kind
    self.authoring = authoring
  }

  /// Admission work of `Authoring()` (``AuthoringID/main``).
  public static let admission = Self(.admission, of: .main)
  /// Relinquishing work of `Authoring()` (``AuthoringID/main``).
  public static let relinquish = Self(.relinquish, of: .main)

  /// Admission work of the Authoring named `authoring`.
  public static func admission(of authoring: AuthoringID) -> Self {
    Self(.admission, of: authoring)
  }
  /// Relinquishing work of the Authoring named `authoring`.
  public static func relinquish(of authoring: AuthoringID) -> Self {
    Self(.relinquish, of: authoring)
  }

  /// `admission of main`.
  public var description: String { "\(kind.rawValue) of \(authoring)" }
}
