import ComposableAuthoring
import DemoHTTPProtocol
import WorkspaceDemoFeature
import WorkspaceHTTP

extension AuthoringClient {
  /// Admission on the demo server: `POST /v1/authoring/admissions` asks the policy for the
  /// session, `GET /v1/authoring/grants/{id}` revalidates a grant, `DELETE` gives one up.
  /// Grants are persisted in `credentials`, as the in-memory client does.
  ///
  /// A 403 the policy gives is ``AdmissionDenied``; a grant the server no longer honours is
  /// ``AuthoringGrantRejected``. Without a session nothing is sent: validation fails as an
  /// undecided one does (the persisted grant stays; it never validates for another session).
  static func http(server: DemoServerConnection, credentials: DemoCredentials) -> AuthoringClient {
    @Sendable func context(_ grant: DemoAPI.Grant) -> AuthoringContext {
      var capabilities: AuthoringCapabilities = []
      if grant.capabilities.contains("edit") { capabilities.insert(.edit) }
      if grant.capabilities.contains("publish") { capabilities.insert(.publish) }
      return AuthoringContext(
        identity: AuthoringIdentity(rawValue: grant.username),
        grant: AuthoringGrant(rawValue: grant.id), capabilities: capabilities)
    }
    return .persistingGrants(
      in: credentials,
      validate: { grant in
        do {
          return context(try await server.get(DemoAPI.grant(grant.rawValue), grant: grant))
        } catch let refusal as DemoServerError where refusal.code == .admissionDenied {
          throw AdmissionDenied(reason: refusal.problem?.detail ?? refusal.description)
        } catch let refusal as DemoServerError where [403, 404].contains(refusal.status) {
          throw AuthoringGrantRejected(reason: refusal.description)
        }
      },
      requestAdmission: {
        do {
          return context(try await server.change(.post, DemoAPI.admissions, as: DemoAPI.Grant.self))
        } catch let refusal as DemoServerError where refusal.code == .admissionDenied {
          throw AdmissionDenied(reason: refusal.problem?.detail ?? refusal.description)
        }
      },
      relinquish: { grant in try? await server.change(.delete, DemoAPI.grant(grant.rawValue)) }
    )
  }
}
