import ComposableAuthoring
import ComposableWorkspace
import DemoHTTPProtocol
import Foundation
import WorkspaceDemoFeature
import WorkspaceHTTP

/// Typed calls to the demo server over the backend's one ``HTTPSession``.
struct DemoServerConnection: Sendable {
  let session: HTTPSession
  let configuration: HTTPBackendConfiguration

  /// `GET path`, decoded. With a `grant` it is a session call checked against that grant;
  /// without, a public read.
  func get<Value: Decodable>(
    _ path: String, as type: Value.Type = Value.self, grant: AuthoringGrant? = nil
  ) async throws -> Value {
    var request = HTTPRequest.get(path, access: grant == nil ? .public : .session)
    if let grant { request.headers[DemoAPI.grantHeader] = grant.rawValue }
    return try decode(try await session.send(request), of: request, as: type)
  }

  /// A session call that changes something (`POST`, `DELETE`), decoded.
  func change<Value: Decodable>(
    _ method: HTTPMethod, _ path: String, as type: Value.Type = Value.self
  ) async throws -> Value {
    let request = HTTPRequest(method: method, path: path)
    return try decode(try await session.send(request), of: request, as: type)
  }

  /// A session call that changes something and answers nothing worth reading.
  func change(_ method: HTTPMethod, _ path: String) async throws {
    let request = HTTPRequest(method: method, path: path)
    let response = try await session.send(request)
    guard response.isSuccess else {
      throw DemoServerError(request: request.summary, response: response)
    }
  }

  /// Creates a proposal as one idempotent intent keyed by `request`'s idempotency key:
  /// retried with the same key and body until a definite answer, at most
  /// ``HTTPBackendConfiguration/publishAttempts`` times.
  func createProposal(_ draft: DemoAPI.NewProposal, key: UUID) async throws -> DemoProposal {
    let intent = IdempotentIntent(
      key: IdempotencyKey(key), path: DemoAPI.proposals, body: try .json(draft))
    let policy = RetryPolicy(
      maxAttempts: configuration.publishAttempts, backoff: configuration.publishBackoff)
    let response: HTTPResponse
    do {
      response = try await session.send(intent, policy: policy)
    } catch IdempotentIntentError.refused(let summary, _, let refusal) {
      throw DemoServerError(request: summary, response: refusal)
    } catch let error as IdempotentIntentError {
      guard case .noDefiniteAnswer = error else { throw error }
      throw DemoServerUnavailable("\(error)")
    }
    return try decode(response, of: intent.request, as: DemoProposal.self)
  }

  private func decode<Value: Decodable>(
    _ response: HTTPResponse, of request: HTTPRequest, as type: Value.Type
  ) throws -> Value {
    guard response.isSuccess else {
      throw DemoServerError(request: request.summary, response: response)
    }
    do {
      return try response.decode(type)
    } catch {
      throw DemoServerAnswerUnreadable(request: request.summary)
    }
  }
}
