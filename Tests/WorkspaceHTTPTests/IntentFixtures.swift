import ComposableCore
import ComposableTesting
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import WorkspaceHTTP

/// A records service honouring the Idempotency-Key draft at `POST /records`, with scripted
/// faults per attempt (1-based).
final class RecordsServer: Sendable {
  enum Fault: Sendable {
    /// Create the record, then close without answering (the answer is lost).
    case loseAnswerAfterCreating
    /// Answer 409: the first request is still in flight.
    case inFlight
    case status(Int, retryAfter: Int? = nil)
    case resetBeforeCreating
  }

  struct Attempt: Sendable, Equatable {
    let key: String?
    let body: Data
    /// Whether the request asked for its connection to be closed after the answer.
    let closesConnection: Bool
  }

  let sessionServer: SessionServer
  let attempts = LockIsolated<[Attempt]>([])
  /// Created records by key: the body they were created from and their id.
  let records = LockIsolated<[String: (body: Data, id: String)]>([:])

  init(faults: @escaping @Sendable (Int) -> Fault? = { _ in nil }) throws {
    let attempts = self.attempts
    let records = self.records
    sessionServer = try SessionServer { router in
      router.post("/records") { request in
        let key = request.headers["Idempotency-Key"].flatMap(IdempotencyKey.init(headerValue:))
        let number = attempts.withValue { attempts -> Int in
          attempts.append(
            Attempt(
              key: key?.rawValue, body: request.body,
              closesConnection: request.headers["Connection"]?.lowercased() == "close"))
          return attempts.count
        }
        guard let key else { return problemResponse(.keyMissing) }
        let fault = faults(number)
        switch fault {
        case .inFlight:
          return problemResponse(.inFlight)
        case .status(let status, let retryAfter):
          var response = HTTPServerResponse.status(status)
          if let retryAfter { response.headers["Retry-After"] = "\(retryAfter)" }
          return response
        case .resetBeforeCreating:
          return .resetConnection
        case .loseAnswerAfterCreating, nil:
          break
        }
        let outcome = records.withValue { records -> (id: String, replayed: Bool)? in
          if let existing = records[key.rawValue] {
            return existing.body == request.body ? (existing.id, true) : nil
          }
          let id = "R\(records.count + 1)"
          records[key.rawValue] = (request.body, id)
          return (id, false)
        }
        guard let outcome else { return problemResponse(.keyReused) }
        if case .loseAnswerAfterCreating = fault { return .closeWithoutAnswer }
        return .json(#"{"id":"\#(outcome.id)"}"#, status: outcome.replayed ? 200 : 201)
      }
    }
  }

  func signedInSession() async throws -> HTTPSession {
    try await sessionServer.signedInSession(.init(csrf: .echoCookie()))
  }

  func stop() async { await sessionServer.stop() }
}

extension Reports<IntentProgress> {
  /// The next `.waiting` report's delay.
  func nextWait(_ what: String) async throws -> Duration {
    try await next(what) { progress in
      if case .waiting(_, let delay, _) = progress { delay } else { nil }
    }
  }
}

/// An intent being sent in a task, its backoff sleeping on a `TestClock`, its progress kept.
struct SendingIntent {
  let task: Task<HTTPResponse, any Error>
  let clock = TestClock()
  let progress = Reports<IntentProgress>()

  init(_ intent: IdempotentIntent, through session: HTTPSession, policy: RetryPolicy) {
    let (clock, progress) = (self.clock, self.progress)
    task = Task {
      try await withDependencies {
        $0.clock = clock
      } operation: {
        try await session.send(intent, policy: policy, progress: progress.report)
      }
    }
  }

  /// The next backoff's delay, once the intent waits on the clock.
  func nextWait(_ what: String) async throws -> Duration {
    try await progress.nextWait(what)
  }

  /// How the sending ended.
  func answer(_ what: String) async throws -> HTTPResponse {
    let task = self.task
    return try await within(15, what) { try await task.value }
  }
}

/// The draft's problem document as an `application/problem+json` answer.
func problemResponse(_ problem: IdempotencyProblem) -> HTTPServerResponse {
  HTTPServerResponse(
    status: problem.status, headers: ["Content-Type": IdempotencyProblem.contentType],
    body: .bytes(Data(problem.json.utf8)))
}
