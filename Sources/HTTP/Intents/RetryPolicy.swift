/// How an intent is retried: how many attempts, how long between them, and how answers are
/// read.
public struct RetryPolicy: Sendable {
  /// Attempts in all, the first included (at least 1).
  public var maxAttempts: Int
  /// The waits between attempts, on the `\.clock` dependency.
  public var backoff: Backoff
  /// Reads an answer (default: the IETF draft, ``IntentAnswer/classify(_:)``).
  public var classify: @Sendable (HTTPResponse) -> IntentAnswer

  public init(
    maxAttempts: Int = 5, backoff: Backoff = Backoff(),
    classify: @escaping @Sendable (HTTPResponse) -> IntentAnswer = IntentAnswer.classify
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.backoff = backoff
    self.classify = classify
  }
}

/// Where an intent's sending stands (for a "retrying…" notice, and for tests that drive the
/// backoff on a `TestClock`).
public enum IntentProgress: Sendable, Hashable {
  /// Attempt `attempt` (from 1) is being sent.
  case sending(attempt: Int)
  /// Attempt `attempt` had no definite answer (`reason`); the next waits `delay` on the
  /// `\.clock` dependency. The wait's deadline is fixed before this is reported.
  case waiting(attempt: Int, delay: Duration, reason: String)
}

/// An intent that ended without success. Messages name the intent's method, path and key
/// (not a secret), never its body.
public enum IdempotentIntentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A definite refusal: the intent has its answer (the response is kept for the caller).
  case refused(intent: String, key: IdempotencyKey, response: HTTPResponse)
  /// The key was already used with another payload: a programmer error (reported as an
  /// issue); never retried under a new key.
  case keyReusedWithOtherPayload(intent: String, key: IdempotencyKey)
  /// No definite answer after every attempt: keep the intent and retry it later, same key.
  case noDefiniteAnswer(intent: String, key: IdempotencyKey, attempts: Int, lastFailure: String)

  public var description: String {
    switch self {
    case .refused(let intent, let key, let response):
      "\(intent) (Idempotency-Key \(key)) was refused with \(response.status)."
    case .keyReusedWithOtherPayload(let intent, let key):
      "\(intent) reused Idempotency-Key \(key) with another payload; it was not retried."
    case .noDefiniteAnswer(let intent, let key, let attempts, let lastFailure):
      "\(intent) (Idempotency-Key \(key)) got no definite answer in \(attempts) attempts "
        + "(last: \(lastFailure)); keep the intent and retry it with the same key."
    }
  }
}
