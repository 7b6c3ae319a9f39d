import ComposableCore
import ComposableTesting
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import WorkspaceHTTP

extension Reports<EventStreamState> {
  /// The next `.waiting` state's delay.
  func nextWait(_ what: String) async throws -> Duration {
    try await next(what) { state in
      if case .waiting(let delay, _) = state { delay } else { nil }
    }
  }
}

/// `GET path` followed on a `TestClock`, with exact waits (no jitter; 1 s before the
/// server's `retry:`), its states kept and its events collected.
struct ClockedStream {
  let clock = TestClock()
  let states = Reports<EventStreamState>()
  let collector: EventCollector

  init(_ session: HTTPSession, path: String = "/live", maxReconnectAttempts: Int? = nil) {
    let options = EventStreamOptions(
      reconnect: Backoff(initial: .seconds(1), maximum: .seconds(30), jitter: 0),
      maxReconnectAttempts: maxReconnectAttempts, onStateChange: states.report)
    let clock = self.clock
    collector = withDependencies {
      $0.clock = clock
    } operation: {
      EventCollector(session.events(.get(path), options: options))
    }
  }
}

/// Collects a stream's events in a task, so a test can drive the clock meanwhile.
final class EventCollector: Sendable {
  private let events = LockIsolated<[ServerSentEvent]>([])
  private let arrivals: AsyncStream<Int>
  private let arrived: AsyncStream<Int>.Continuation
  let task: Task<(any Error)?, Never>

  init(_ stream: AsyncThrowingStream<ServerSentEvent, any Error>) {
    let events = self.events
    let (arrivals, arrived) = AsyncStream.makeStream(of: Int.self)
    self.arrivals = arrivals
    self.arrived = arrived
    task = Task {
      do {
        for try await event in stream {
          let count = events.withValue { events -> Int in
            events.append(event)
            return events.count
          }
          arrived.yield(count)
        }
        arrived.finish()
        return nil
      } catch {
        arrived.finish()
        return error
      }
    }
  }

  var received: [ServerSentEvent] { events.withValue { $0 } }

  /// Waits until `count` events have arrived.
  func waitFor(_ count: Int) async throws {
    if received.count >= count { return }
    let arrivals = self.arrivals
    try await within(15, "\(count) events") {
      for await total in arrivals where total >= count { return }
      throw TimedOut(what: "\(count) events (the stream ended)")
    }
  }

  /// How the stream ended: `nil` normally, else its error.
  func end() async throws -> (any Error)? {
    let task = self.task
    return try await within(15, "the stream to end") { await task.value }
  }
}
