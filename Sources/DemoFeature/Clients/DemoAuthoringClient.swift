import ComposableAuthoring
import ComposableCore

extension AuthoringClient {
  /// The authoring client over the in-memory system: admission by the system's policy for the
  /// current application session; grants persisted in `credentials`.
  public static func demo(system: DemoSystem, credentials: DemoCredentials) -> AuthoringClient {
    @Sendable func session() throws -> DemoSession {
      guard let session = credentials.current.session else { throw DemoError.sessionExpired }
      return session
    }
    @Sendable func context(for grant: DemoGrant) -> AuthoringContext {
      AuthoringContext(
        identity: AuthoringIdentity(rawValue: grant.username),
        grant: AuthoringGrant(rawValue: grant.id),
        capabilities: [.edit, .publish]
      )
    }
    return AuthoringClient(
      restorePersistedGrant: { credentials.current.persistedGrant },
      clearIncomingSharedGrants: { credentials.update { $0.incomingSharedGrant = nil } },
      validate: { grant in
        let token = try session().token
        let validated: DemoGrant
        do {
          validated = try await system.validate(grantID: grant.rawValue, token: token)
        } catch {
          throw AuthoringGrantRejected(reason: "\(error)")
        }
        let context = context(for: validated)
        credentials.update { $0.grant = context.grant }
        return context
      },
      requestAdmission: {
        let token = try session().token
        let grant: DemoGrant
        do {
          grant = try await system.admit(token: token)
        } catch DemoError.admissionDenied(let reason) {
          throw AdmissionDenied(reason: reason)
        }
        let context = context(for: grant)
        credentials.update { $0.grant = context.grant }
        return context
      },
      persist: { grant in credentials.update { $0.persistedGrant = grant } },
      discardPersistedGrant: { grant in
        credentials.update { values in
          if values.persistedGrant == grant { values.persistedGrant = nil }
          if values.grant == grant { values.grant = nil }
        }
      },
      relinquish: { grant in
        credentials.update { values in
          if values.grant == grant { values.grant = nil }
        }
        await system.revoke(grantID: grant.rawValue)
      }
    )
  }
}
