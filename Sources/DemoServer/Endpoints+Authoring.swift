import DemoHTTPProtocol
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// Admission and grants.
extension Endpoints {
  /// `POST /v1/authoring/admissions`: a grant for the session (201), or 403 by the policy.
  func admit(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      do throws(DemoError) {
        return .encoded(
          Self.grant(try await system.admit(token: caller.session.token)), status: 201)
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `GET /v1/authoring/grants/{id}`: the grant if it is still honoured for this session and
  /// the policy still lets its holder author; 403 otherwise.
  func validateGrant(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      do throws(DemoError) {
        return .encoded(
          Self.grant(
            try await system.validate(
              grantID: request.pathParameters["id"] ?? "", token: caller.session.token)))
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `DELETE /v1/authoring/grants/{id}`: gives up a grant of this session (204, also when it
  /// was already gone; another session's grant is left alone).
  func relinquishGrant(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      let id = request.pathParameters["id"] ?? ""
      guard (try? await system.validate(grantID: id, token: caller.session.token)) != nil else {
        return .status(204)
      }
      do throws(DemoError) {
        try await system.revoke(grantID: id)
        return .status(204)
      } catch {
        return Self.refusal(error)
      }
    }
  }

  static func grant(_ grant: DemoGrant) -> DemoAPI.Grant {
    DemoAPI.Grant(id: grant.id, username: grant.username, capabilities: ["edit", "publish"])
  }
}
