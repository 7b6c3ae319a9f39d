import Foundation

/// One user intent to change something on the server: its one `IdempotencyKey` and its
/// body, encoded once. Keep the value with the intent (in the form's state, on disk for a
/// crash-safe retry) until it has a definite answer; every send of it carries the same key
/// and the same bytes.
///
/// ```swift
/// let intent = try IdempotentIntent(
///   key: IdempotencyKey(request.idempotencyKey), path: "/v1/proposals",
///   body: .json(NewProposal(title: request.title)))
/// let created = try await session.send(intent)   // retried safely, see RetryPolicy
/// ```
///
/// A form body is frozen as bytes too, so a CSRF form-field proof is not added to it (header
/// proofs still are, fresh on each attempt).
public struct IdempotentIntent: Sendable, Hashable, Codable {
  /// The intent's one key, sent with every attempt.
  public let key: IdempotencyKey
  /// The method of every attempt (usually `POST`).
  public let method: HTTPMethod
  /// The path below the session's base URL.
  public let path: String
  /// The body, encoded once: every attempt sends these bytes.
  public let body: Data
  /// The body's content type (`nil` without a body).
  public let contentType: String?

  /// Freezes `body`; `key` defaults to a new key from the `\.uuid` dependency.
  public init(
    key: IdempotencyKey = .make(), method: HTTPMethod = .post, path: String, body: HTTPBody
  ) {
    self.key = key
    self.method = method
    self.path = path
    let encoded = body.encoded
    self.body = encoded?.data ?? Data()
    self.contentType = encoded?.contentType
  }

  /// The request each attempt sends.
  public var request: HTTPRequest {
    var headers = HTTPHeaders()
    headers["Idempotency-Key"] = key.headerValue
    let frozen: HTTPBody = contentType.map { .bytes(body, contentType: $0) } ?? .none
    return HTTPRequest(method: method, path: path, headers: headers, body: frozen)
  }

  /// `POST /v1/proposals`.
  public var summary: String { "\(method) \(path)" }
}
