import ComposableCore
import Foundation

extension HTTPSession {
  /// Sends `intent` until it has a definite answer, every attempt with the same key and body,
  /// each on a fresh connection (so a lost answer is seen at once, never resent or stalled by
  /// the URL loading system behind the intent's back).
  ///
  /// A lost answer, a timeout, a broken connection, a 5xx, 408 or 429, and a 409 "in flight"
  /// are retried after ``Backoff`` on the `\.clock` dependency (`Retry-After` honoured), at
  /// most `policy.maxAttempts` times in all. A 2xx (a replayed answer included) is returned.
  /// "Key already used with another payload" is reported with `reportIssue` and thrown,
  /// never retried. Other statuses are definite refusals. A session end (401) is thrown as
  /// ``HTTPSessionError/signedOut``: keep the intent and send it again after signing in.
  ///
  /// ```swift
  /// for await progress in … { }   // or pass `progress:` to show "retrying…"
  /// let created = try await session.send(intent, policy: RetryPolicy(maxAttempts: 3))
  /// ```
  public func send(
    _ intent: IdempotentIntent, policy: RetryPolicy = RetryPolicy(),
    progress: @escaping @Sendable (IntentProgress) -> Void = { _ in }
  ) async throws -> HTTPResponse {
    let clock = DependencyValues.current.clock
    var failures = 0
    while true {
      progress(.sending(attempt: failures + 1))
      let reason: String
      var serverDelay: Duration?
      do {
        let response = try await send(intent.request, onFreshConnection: true)
        switch policy.classify(response) {
        case .success:
          return response
        case .refused:
          throw IdempotentIntentError.refused(
            intent: intent.summary, key: intent.key, response: response)
        case .keyReusedWithOtherPayload:
          let error = IdempotentIntentError.keyReusedWithOtherPayload(
            intent: intent.summary, key: intent.key)
          reportIssue("\(error) The server answered \(response.status).")
          throw error
        case .inFlight:
          reason = "the first request is still in flight (\(response.status))"
        case .transient:
          reason = "the server answered \(response.status)"
          serverDelay = Self.retryAfter(response)
        }
      } catch let error as HTTPSessionError where error.isTransient {
        reason = error.description
      }
      failures += 1
      guard failures < policy.maxAttempts else {
        log("✗ \(intent.summary): no definite answer after \(failures) attempts")
        throw IdempotentIntentError.noDefiniteAnswer(
          intent: intent.summary, key: intent.key, attempts: failures, lastFailure: reason)
      }
      let delay = policy.backoff.delay(afterFailures: failures, base: serverDelay)
      let wait = clock.sleep(endingIn: delay)
      log("↻ \(intent.summary) (Idempotency-Key \(intent.key)) in \(delay): \(reason)")
      progress(.waiting(attempt: failures, delay: delay, reason: reason))
      try await wait()
    }
  }

  /// `Retry-After` in seconds (the HTTP-date form is not used by the servers this serves).
  private static func retryAfter(_ response: HTTPResponse) -> Duration? {
    guard let value = response.headers["Retry-After"], let seconds = Int(value), seconds >= 0
    else { return nil }
    return .seconds(min(seconds, 3600))
  }
}
