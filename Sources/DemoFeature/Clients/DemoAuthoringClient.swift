import ComposableAuthoring
import ComposableCore

extension AuthoringClient {
  /// The authoring client over the in-memory system: admission and validation by the system's
  /// policy for the current application session; grants persisted in `credentials`.
  ///
  /// It never records which grant is in force: that is Authoring's decision, published to the
  /// clients through `credentials.capability`.
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
    return .persistingGrants(
      in: credentials,
      validate: { grant in
        let token = try session().token
        do {
          // The system asks the same policy question admission asks.
          return context(for: try await system.validate(grantID: grant.rawValue, token: token))
        } catch DemoError.admissionDenied(let reason) {
          throw AdmissionDenied(reason: reason)
        } catch {
          throw AuthoringGrantRejected(reason: "\(error)")
        }
      },
      requestAdmission: {
        let token = try session().token
        do {
          return context(for: try await system.admit(token: token))
        } catch DemoError.admissionDenied(let reason) {
          throw AdmissionDenied(reason: reason)
        }
      },
      relinquish: { grant in await system.revoke(grantID: grant.rawValue) }
    )
  }
}
