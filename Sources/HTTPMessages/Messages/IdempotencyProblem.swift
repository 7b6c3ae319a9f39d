/// The problem documents (RFC 9457, `application/problem+json`) of the IETF Idempotency-Key
/// draft's error scenarios, for servers that speak it (the loopback reference servers do) and
/// for clients that recognise their wording (`IntentAnswer.classify(_:)` in WorkspaceHTTP).
///
/// ```swift
/// let problem = IdempotencyProblem.inFlight        // server side
/// HTTPServerResponse.json(problem.json, status: problem.status)
/// ```
public struct IdempotencyProblem: Sendable, Hashable {
  public let status: Int
  public let title: String
  public let detail: String

  /// 409: the first request with this key is still being processed.
  public static let inFlight = IdempotencyProblem(
    status: 409, title: "A request is outstanding for this Idempotency-Key",
    detail: "A request with the same Idempotency-Key for the same operation is being processed.")

  /// 422: the key was already used with another payload.
  public static let keyReused = IdempotencyProblem(
    status: 422, title: "Idempotency-Key is already used",
    detail: "This operation is idempotent and Idempotency-Key must not be reused across "
      + "different payloads of this operation.")

  /// 400: the operation needs an Idempotency-Key and the request had none.
  public static let keyMissing = IdempotencyProblem(
    status: 400, title: "Idempotency-Key is missing",
    detail: "This operation is idempotent and it requires correct usage of Idempotency Key.")

  /// The problem document (its type is the default, `about:blank`).
  public var json: String {
    #"{"status":\#(status),"title":"\#(title)","detail":"\#(detail)"}"#
  }

  /// `application/problem+json`.
  public static let contentType = "application/problem+json"
}
