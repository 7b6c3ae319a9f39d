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
