import ComposableAuthoring

extension AuthoringIdentity {
  static let alice = AuthoringIdentity(rawValue: "alice")
  static let bob = AuthoringIdentity(rawValue: "bob")
}

extension AuthoringGrant {
  static let alice = AuthoringGrant(rawValue: "grant-alice")
  static let bob = AuthoringGrant(rawValue: "grant-bob")
  /// A persisted grant its issuer no longer accepts.
  static let stale = AuthoringGrant(rawValue: "grant-stale")
  /// A grant that arrived through a share link before the app started.
  static let sharedLink = AuthoringGrant(rawValue: "grant-shared-link")
}

extension AuthoringContext {
  static let alice = AuthoringContext(
    identity: .alice, grant: .alice, capabilities: [.edit, .publish])
  static let bob = AuthoringContext(identity: .bob, grant: .bob, capabilities: [.edit])
  /// What the shared-link grant would validate to — it must never become the context.
  static let sharedLink = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "link-sharer"), grant: .sharedLink,
    capabilities: [.edit, .publish])
}

extension Authoring.State {
  static let notAdmitted = Self()
  static func admitted(_ context: AuthoringContext) -> Self { Self(admission: .admitted(context)) }
  static func denied(_ reason: String) -> Self {
    Self(admission: .denied(AdmissionDenied(reason: reason)))
  }
}

/// Thrown by test `validate` endpoints for a grant the issuer rejects.
typealias GrantRejected = AuthoringGrantRejected
