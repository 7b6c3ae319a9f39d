import ComposableAuthoring

extension AuthoringClient {
  /// An authoring client whose grants are kept in the demo's `credentials` (the persisted
  /// grant, and a shared grant to clear); admission, validation and giving a grant back are
  /// the backend's.
  ///
  /// ```swift
  /// let authoring = AuthoringClient.persistingGrants(
  ///   in: credentials, validate: admission.validate,
  ///   requestAdmission: admission.requestAdmission, relinquish: { _ in })
  /// ```
  public static func persistingGrants(
    in credentials: DemoCredentials,
    validate: @escaping @Sendable (_ grant: AuthoringGrant) async throws -> AuthoringContext,
    requestAdmission: @escaping @Sendable () async throws -> AuthoringContext,
    relinquish: @escaping @Sendable (_ grant: AuthoringGrant) async -> Void
  ) -> AuthoringClient {
    AuthoringClient(
      restorePersistedGrant: { credentials.current.persistedGrant },
      clearIncomingSharedGrants: { credentials.update { $0.incomingSharedGrant = nil } },
      validate: validate,
      requestAdmission: requestAdmission,
      persist: { grant in credentials.update { $0.persistedGrant = grant } },
      discardPersistedGrant: { grant in
        credentials.update { values in
          if values.persistedGrant == grant { values.persistedGrant = nil }
        }
      },
      relinquish: relinquish
    )
  }
}
