import Foundation
import HTTPTestSupport
import Testing
import WorkspaceHTTP

/// Nothing in the HTTP layer waits synchronously on a cooperative thread (issue 29).
///
/// The freeze this guards against, as it was seen: a task's cancellation handler cancelled its
/// URLSession task, and FoundationNetworking made it wait for the session's work queue while
/// holding the task's status lock; that queue, completing the same request's failure, waited
/// for the lock to resume the task. A session released meanwhile waited for the queue too. On
/// two cores that is the whole cooperative pool: every task in the process stopped.
///
/// The stories below race cancellation against a failing connection hundreds of times, with
/// sessions released as the requests end. A freeze cannot be bounded by a task (none runs any
/// more), so a ``FreezeWatchdog`` thread ends the process with a message if one happens.
@Suite struct NoFreezeTests {
  /// How long a refused request takes here, from send to failure (the median of 20).
  static func refusalTime(_ base: URL) async -> Duration {
    let session = HTTPSession(baseURL: base)
    var times: [Duration] = []
    for _ in 0..<20 {
      let start = ContinuousClock.now
      _ = try? await session.send(.get("/x", access: .public))
      times.append(ContinuousClock.now - start)
    }
    return times.sorted()[times.count / 2]
  }

  @Test func cancellingRequestsAsTheyFailWhileTheirSessionsGoAwayNeverFreezes() async throws {
    let watchdog = FreezeWatchdog(
      seconds: 90, "requests cancelled as their connections fail, sessions released meanwhile")
    defer { watchdog.disarm() }
    // Held until the test ends, so no parallel test's server can take the port meanwhile.
    let refusing = try RefusingLoopbackPort()
    defer { withExtendedLifetime(refusing) {} }
    let base = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
    // Cancel anywhere from before the request starts to after its failure arrived.
    let window = max(await Self.refusalTime(base) * 2, .microseconds(200))
    var outcomes = Outcomes()
    for _ in 0..<50 {
      let results = await withTaskGroup(of: Outcome.self) { group in
        for index in 0..<40 {
          group.addTask {
            // Each request has a session of its own, released when the request ends: its
            // deinit runs on whichever thread lets it go last, often a cooperative one.
            let session = HTTPSession(baseURL: base)
            let request = Task {
              try await session.send(
                .get("/x", access: .public), onFreshConnection: index.isMultiple(of: 2))
            }
            try? await Task.sleep(for: window * Double.random(in: 0...1))
            request.cancel()
            do {
              _ = try await request.value
              return .answered
            } catch is CancellationError {
              return .cancelled
            } catch {
              return .failed
            }
          }
        }
        var results: [Outcome] = []
        for await result in group { results.append(result) }
        return results
      }
      outcomes.count(results)
    }
    #expect(outcomes.answered == 0, "nothing listens: no request can be answered")
    #expect(outcomes.cancelled + outcomes.failed == 50 * 40)
    #expect(
      outcomes.cancelled > 0 && outcomes.failed > 0,
      "the race ran both ways: some requests cancelled first, some failed first")
  }

  @Test func cancellingEventStreamsAsTheirConnectionsFailNeverFreezes() async throws {
    let watchdog = FreezeWatchdog(
      seconds: 90, "event streams cancelled as their connections fail")
    defer { watchdog.disarm() }
    // Held until the test ends, so no parallel test's server can take the port meanwhile.
    let refusing = try RefusingLoopbackPort()
    defer { withExtendedLifetime(refusing) {} }
    let base = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
    var ended = 0
    for round in 0..<20 {
      ended += await withTaskGroup(of: Int.self) { group in
        for _ in 0..<20 {
          group.addTask {
            let session = HTTPSession(baseURL: base)
            var options = EventStreamOptions()
            options.reconnect = Backoff(initial: .milliseconds(1), maximum: .milliseconds(2))
            let stream = session.events(.get("/live", access: .public), options: options)
            do {
              for try await _ in stream {}
            } catch {}
            return 1
          }
        }
        try? await Task.sleep(for: .microseconds(100 * (round % 5)))
        group.cancelAll()
        return await group.reduce(0, +)
      }
    }
    #expect(ended == 20 * 20)
  }
}

private enum Outcome: Sendable { case answered, cancelled, failed }

private struct Outcomes {
  var answered = 0
  var cancelled = 0
  var failed = 0

  mutating func count(_ results: [Outcome]) {
    for result in results {
      switch result {
      case .answered: answered += 1
      case .cancelled: cancelled += 1
      case .failed: failed += 1
      }
    }
  }
}
