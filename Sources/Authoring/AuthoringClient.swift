import ComposableCore

/// Authoring's access to grant storage and to the application's admission policy.
///
/// The application builds one from its own session and network dependencies and installs it
/// once at its composition root:
///
/// ```swift
/// EventApplication()
///   .dependency(authoringClient)
/// ```
///
/// Authoring knows no sessions: endpoints that need the current application session
/// (``validate``, ``requestAdmission``, ``relinquish``) read it from the application themselves.
///
/// Contract every implementation must keep:
/// - ``validate`` answers for the grant it was given, and throws ``AuthoringGrantRejected``
///   when that grant is definitely not valid for the current session (revoked, expired, or
///   issued to another identity). It asks the same question admission asks: when the policy
///   now refuses the session, it throws ``AdmissionDenied``. Only these two discard a
///   persisted grant. Other errors (offline) leave it stored and the person not admitted. A
///   stale persisted grant is harmless because it never validates.
/// - ``requestAdmission`` throws ``AdmissionDenied`` when the policy refuses. Any other error is
///   treated as a refusal too (admission fails closed).
/// - ``discardPersistedGrant`` removes the persisted grant only when it is still the given one,
///   so a late discard of an old grant never removes a newer one.
/// - Incoming shared grants (for example delivered by a link) are never used by ``validate`` or
///   ``requestAdmission`` through restoration: ``clearIncomingSharedGrants`` drops them.
///
/// `testValue` (and `liveValue`, which an application must replace) reports an issue naming the
/// endpoint on every call; tests override only the endpoints their story uses.
public struct AuthoringClient: DependencyKey, Sendable {
  /// Reads the grant a previous run persisted, or `nil` when there is none. Unreadable storage
  /// answers `nil`.
  public var restorePersistedGrant: @Sendable () async -> AuthoringGrant?

  /// Drops every incoming shared grant waiting in storage, without using it.
  /// `restoreAuthorization` awaits this before it reads or validates anything.
  public var clearIncomingSharedGrants: @Sendable () async -> Void

  /// Validates `grant` for the current application session and answers its capability, as the
  /// admission policy decides it now. Throws ``AuthoringGrantRejected`` when the grant
  /// definitely cannot be used (invalid, revoked, another identity's) and ``AdmissionDenied``
  /// when the policy refuses the session; the returned context's ``AuthoringContext/grant``
  /// must be `grant`.
  public var validate: @Sendable (_ grant: AuthoringGrant) async throws -> AuthoringContext

  /// Asks the admission policy to admit the current application session to authoring, and
  /// answers the newly issued capability. Throws ``AdmissionDenied`` when the policy refuses.
  public var requestAdmission: @Sendable () async throws -> AuthoringContext

  /// Persists `grant` so a later `restoreAuthorization` can revalidate it, replacing any
  /// persisted grant.
  public var persist: @Sendable (_ grant: AuthoringGrant) async -> Void

  /// Removes the persisted grant if it is still `grant`; a no-op otherwise.
  public var discardPersistedGrant: @Sendable (_ grant: AuthoringGrant) async -> Void

  /// Gives `grant` up at its issuer (best effort: failures are the client's to log or retry).
  public var relinquish: @Sendable (_ grant: AuthoringGrant) async -> Void

  public init(
    restorePersistedGrant: @escaping @Sendable () async -> AuthoringGrant?,
    clearIncomingSharedGrants: @escaping @Sendable () async -> Void,
    validate: @escaping @Sendable (_ grant: AuthoringGrant) async throws -> AuthoringContext,
    requestAdmission: @escaping @Sendable () async throws -> AuthoringContext,
    persist: @escaping @Sendable (_ grant: AuthoringGrant) async -> Void,
    discardPersistedGrant: @escaping @Sendable (_ grant: AuthoringGrant) async -> Void,
    relinquish: @escaping @Sendable (_ grant: AuthoringGrant) async -> Void
  ) {
    self.restorePersistedGrant = restorePersistedGrant
    self.clearIncomingSharedGrants = clearIncomingSharedGrants
    self.validate = validate
    self.requestAdmission = requestAdmission
    self.persist = persist
    self.discardPersistedGrant = discardPersistedGrant
    self.relinquish = relinquish
  }

  /// Not implemented: Authoring cannot know an application's storage or policy. Install the
  /// application's client with `.dependency(authoringClient)`.
  public static var liveValue: AuthoringClient { unimplementedClient }

  /// Every endpoint reports an issue naming itself; throwing endpoints then throw
  /// `UnimplementedEndpoint`, the others answer a harmless placeholder (`nil` / nothing).
  public static var testValue: AuthoringClient { unimplementedClient }

  private static var unimplementedClient: AuthoringClient {
    AuthoringClient(
      restorePersistedGrant: unimplemented(
        "AuthoringClient.restorePersistedGrant", placeholder: nil),
      clearIncomingSharedGrants: unimplemented(
        "AuthoringClient.clearIncomingSharedGrants", placeholder: ()),
      validate: unimplemented("AuthoringClient.validate"),
      requestAdmission: unimplemented("AuthoringClient.requestAdmission"),
      persist: unimplemented("AuthoringClient.persist", placeholder: ()),
      discardPersistedGrant: unimplemented(
        "AuthoringClient.discardPersistedGrant", placeholder: ()),
      relinquish: unimplemented("AuthoringClient.relinquish", placeholder: ())
    )
  }
}
