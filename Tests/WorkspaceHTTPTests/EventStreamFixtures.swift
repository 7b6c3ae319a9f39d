import ComposableCore
import Foundation
import LoopbackHTTPServer
import WorkspaceHTTP

/// Connection states as a stream a test can await, boundedly.
final class StateLog: Sendable {
  private let stream: AsyncStream<EventStreamState>
  private let continuation: AsyncStream<EventStreamState>.Continuation
  private let all = LockIsolated<[EventStreamState]>([])

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  var report: @Sendable (EventStreamState) -> Void {
    { [continuation, all] state in
      all.withValue { $0.append(state) }
      continuation.yield(state)
    }
  }

  var states: [EventStreamState] { all.withValue { $0 } }

  /// The next `.waiting` state's delay.
  func nextWait(_ what: String) async throws -> Duration {
    let stream = self.stream
    return try await within(10, what) {
      for await state in stream {
        if case .waiting(let delay, _) = state { return delay }
      }
      throw TimedOut(what: what)
    }
  }
}

/// Options with no jitter (exact waits) reporting to `log`.
func exactOptions(_ log: StateLog, initial: Duration = .seconds(1)) -> EventStreamOptions {
  EventStreamOptions(
    reconnect: Backoff(initial: initial, maximum: .seconds(30), jitter: 0),
    onStateChange: log.report)
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
    try await within(10, "\(count) events") {
      for await total in arrivals where total >= count { return }
      throw TimedOut(what: "\(count) events (the stream ended)")
    }
  }

  /// How the stream ended: `nil` normally, else its error.
  func end() async throws -> (any Error)? {
    let task = self.task
    return try await within(10, "the stream to end") { await task.value }
  }
}
