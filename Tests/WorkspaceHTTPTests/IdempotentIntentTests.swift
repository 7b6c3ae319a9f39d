import ComposableCore
import ComposableTesting
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@Suite("Idempotent intents")
struct IdempotentIntentTests {
  private let intent = IdempotentIntent(
    key: IdempotencyKey(rawValue: "intent-1"), path: "/records",
    body: .bytes(Data(#"{"title":"Fix the date"}"#.utf8), contentType: "application/json"))
  /// No jitter, so the waits are exactly the backoff's.
  private let policy = RetryPolicy(
    maxAttempts: 4, backoff: Backoff(initial: .seconds(1), maximum: .seconds(8), jitter: 0))

  @Test func aLostAnswerIsRetriedWithTheSameKeyAndBodyAndMakesOneRecord() async throws {
    let server = try RecordsServer { $0 == 1 ? .loseAnswerAfterCreating : nil }
    let session = try await server.signedInSession()
    let sending = SendingIntent(intent, through: session, policy: policy)
    let wait = try await sending.nextWait("the retry's backoff")
    #expect(wait == .seconds(1))
    await sending.clock.advance(by: wait)
    let response = try await sending.answer("the retry")
    #expect(response.status == 200)
    #expect(response.text == #"{"id":"R1"}"#)
    #expect(server.records.current.count == 1)
    let attempts = server.attempts.current
    #expect(attempts.count == 2)
    #expect(Set(attempts.map(\.key)) == ["intent-1"])
    #expect(Set(attempts.map(\.body)) == [intent.body])
    #expect(attempts.allSatisfy { $0.closesConnection }, "an attempt rode a reused connection")
    await server.stop()
  }

  @Test func inFlightIsRetriedOnlyAfterTheBackoffOnTheClock() async throws {
    let server = try RecordsServer { $0 <= 2 ? .inFlight : nil }
    let session = try await server.signedInSession()
    let sending = SendingIntent(intent, through: session, policy: policy)
    let first = try await sending.nextWait("the first backoff")
    #expect(first == .seconds(1))
    await sending.clock.advance(by: first - .milliseconds(1))
    #expect(server.attempts.current.count == 1, "retried before the backoff elapsed")
    #expect(sending.clock.sleeperCount == 1)
    await sending.clock.advance(by: .milliseconds(1))
    let second = try await sending.nextWait("the second backoff")
    #expect(second == .seconds(2), "the backoff grows exponentially")
    #expect(server.attempts.current.count == 2)
    await sending.clock.advance(by: second)
    let response = try await sending.answer("the third attempt")
    #expect(response.status == 201)
    #expect(server.attempts.current.map(\.key) == ["intent-1", "intent-1", "intent-1"])
    await server.stop()
  }

  @Test func theSameKeyWithAnotherPayloadIsReportedAndNotRetried() async throws {
    let server = try RecordsServer()
    let session = try await server.signedInSession()
    _ = try await session.send(intent, policy: policy)
    let other = IdempotentIntent(
      key: intent.key, path: "/records",
      body: .bytes(Data(#"{"title":"Something else"}"#.utf8), contentType: "application/json"))
    let issues = IssueRecorder()
    await withIssueReporters([issues]) {
      await #expect(
        throws: IdempotentIntentError.keyReusedWithOtherPayload(
          intent: "POST /records", key: intent.key)
      ) {
        try await session.send(other, policy: policy)
      }
    }
    #expect(issues.messages.count == 1)
    #expect(issues.messages.first?.contains("reused Idempotency-Key intent-1") == true)
    #expect(server.attempts.current.count == 2, "the reuse was retried")
    #expect(server.records.current.count == 1)
    await server.stop()
  }

  @Test func transientFailuresAreBoundedWithAClearFinalError() async throws {
    let server = try RecordsServer { $0 == 2 ? .resetBeforeCreating : .status(503) }
    let session = try await server.signedInSession()
    let limited = RetryPolicy(maxAttempts: 3, backoff: policy.backoff)
    let sending = SendingIntent(intent, through: session, policy: limited)
    for _ in 1...2 { await sending.clock.advance(by: try await sending.nextWait("a backoff")) }
    await #expect {
      try await sending.answer("the final error")
    } throws: { error in
      "\(error)"
        == "POST /records (Idempotency-Key intent-1) got no definite answer in 3 attempts "
        + "(last: the server answered 503); keep the intent and retry it with the same key."
    }
    #expect(server.attempts.current.map(\.key) == ["intent-1", "intent-1", "intent-1"])
    #expect(server.records.current.isEmpty)
    await server.stop()
  }

  @Test func retryAfterIsHonoured() async throws {
    let server = try RecordsServer { $0 == 1 ? .status(429, retryAfter: 7) : nil }
    let session = try await server.signedInSession()
    let sending = SendingIntent(intent, through: session, policy: policy)
    let wait = try await sending.nextWait("the server's Retry-After")
    #expect(wait == .seconds(7))
    await sending.clock.advance(by: wait)
    #expect(try await sending.answer("the retry").status == 201)
    await server.stop()
  }

  @Test func aDefiniteRefusalEndsTheIntentAtOnce() async throws {
    let server = try RecordsServer { _ in .status(403) }
    let session = try await server.signedInSession()
    await #expect {
      try await session.send(intent, policy: policy)
    } throws: { error in
      guard case .refused(_, let key, let response) = error as? IdempotentIntentError else {
        return false
      }
      return key == intent.key && response.status == 403
    }
    #expect(server.attempts.current.count == 1)
    await server.stop()
  }

  @Test func aSignOutMidIntentKeepsTheIntentForTheRetryAfterSigningIn() async throws {
    let server = try RecordsServer { $0 == 1 ? .status(401) : nil }
    let session = try await server.signedInSession()
    await #expect(throws: HTTPSessionError.signedOut) {
      try await session.send(intent, policy: policy)
    }
    #expect(server.attempts.current.count == 1, "a 401 was retried")
    let again = try await server.signedInSession()
    let response = try await again.send(intent, policy: policy)
    #expect(response.status == 201)
    #expect(server.attempts.current.map(\.key) == ["intent-1", "intent-1"])
    await server.stop()
  }

  @Test func cancellingDuringTheBackoffStopsTheRetries() async throws {
    let server = try RecordsServer { _ in .inFlight }
    let session = try await server.signedInSession()
    let sending = SendingIntent(intent, through: session, policy: policy)
    _ = try await sending.nextWait("the backoff")
    sending.task.cancel()
    await #expect(throws: CancellationError.self) { try await sending.answer("the cancellation") }
    #expect(server.attempts.current.count == 1)
    await server.stop()
  }

  @Test func keysComeFromTheUUIDDependencyAndIntentsSurviveEncoding() throws {
    let made = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      IdempotentIntent(path: "/records", body: .form(["title": "A"]))
    }
    #expect(made.key.rawValue == "00000000-0000-0000-0000-000000000000")
    #expect(made.request.headers["Idempotency-Key"] == "\"00000000-0000-0000-0000-000000000000\"")
    let decoded = try JSONDecoder().decode(
      IdempotentIntent.self, from: try JSONEncoder().encode(made))
    #expect(decoded == made)
    #expect(decoded.request == made.request)
  }

  @Test(arguments: [
    (201, "", IntentAnswer.success),
    (409, IdempotencyProblem.inFlight.json, .inFlight),
    (409, "", .inFlight),
    (409, #"{"title":"Idempotency-Key is already used"}"#, .keyReusedWithOtherPayload),
    (422, IdempotencyProblem.keyReused.json, .keyReusedWithOtherPayload),
    (422, #"{"error":"title is empty"}"#, .refused),
    (503, "", .transient),
    (404, "", .refused),
  ])
  func answersAreReadAsTheDraftHasThem(status: Int, body: String, expected: IntentAnswer) {
    #expect(IntentAnswer.classify(HTTPResponse(status: status, body: Data(body.utf8))) == expected)
  }
}
