/// The problem documents (RFC 9457, `application/problem+json`) of the IETF Idempotency-Key
/// draft's error scenarios, for servers that speak it (the loopback reference servers do) and
/// for ``IntentAnswer/classify(_:)``, which recognises their wording.
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

/// What an answer to an idempotent intent means for the intent.
public enum IntentAnswer: Sendable, Hashable {
  /// A 2xx: done (a replayed answer to a retry counts the same).
  case success
  /// The first request with this key is still in flight (409): retry later, same key.
  case inFlight
  /// Worth retrying with the same key and body: 408, 429, 500, 502, 503, 504.
  case transient
  /// The key was used before with another payload (422, or a 409 that says so): a programmer
  /// error, never retried.
  case keyReusedWithOtherPayload
  /// A definite refusal (any other status): the intent has its answer.
  case refused

  /// The IETF draft's reading: 409 is "in flight" unless its text says the key was already
  /// used with another payload; 422 is "key reused" when its text mentions the
  /// Idempotency-Key, else an ordinary refusal.
  public static func classify(_ response: HTTPResponse) -> IntentAnswer {
    let text = response.text.lowercased()
    let aboutTheKey = text.contains("idempotency")
    let saysReused =
      aboutTheKey
      && (text.contains("already used") || text.contains("payload") || text.contains("reuse"))
    switch response.status {
    case 200..<300: return .success
    case 409: return saysReused ? .keyReusedWithOtherPayload : .inFlight
    case 422: return aboutTheKey ? .keyReusedWithOtherPayload : .refused
    case 408, 429, 500, 502, 503, 504: return .transient
    default: return .refused
    }
  }
}
