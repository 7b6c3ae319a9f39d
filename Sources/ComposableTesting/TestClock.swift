import ComposableCore

/// A clock whose time moves only when a test advances it.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.clock = clock
/// }
/// await store.send(.startTimer)
/// await clock.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.ticks = 1 }
/// ```
///
/// `advance` wakes sleepers in deadline order, giving each woken task a chance to run (and to
/// sleep again) before time moves on to the next deadline.
public final class TestClock: Clock, Sendable {
  /// A point on the test clock's time line.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock's origin.
    public let offset: Duration

    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
    /// The store effect that slept, when it was one.
    let effect: EffectLifetime?
  }

  private struct Timeline {
    var now: Instant
    var sleepers: [Sleeper] = []
    var cancelled: Set<UInt64> = []
    var lastID: UInt64 = 0
  }

  private let timeline: LockIsolated<Timeline>

  /// Creates a clock at `now`.
  public init(now: Instant = Instant()) {
    self.timeline = LockIsolated(Timeline(now: now))
  }

  public var now: Instant { timeline.withValue { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { timeline.withValue { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let effect = EffectLifetime.current
    let id = timeline.withValue { timeline -> UInt64 in
      timeline.lastID += 1
      return timeline.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome { case wait, wake, cancel }
        let outcome = timeline.withValue { timeline -> Outcome in
          if timeline.cancelled.remove(id) != nil { return .cancel }
          if deadline <= timeline.now { return .wake }
          timeline.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation, effect: effect))
          return .wait
        }
        switch outcome {
        case .wait: break
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = timeline.withValue { timeline -> Sleeper? in
        guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else {
          timeline.cancelled.insert(id)
          return nil
        }
        return timeline.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline passes, in order.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline` (never backwards), waking sleepers in order.
  ///
  /// After waking the sleepers of one deadline it waits until each woken store effect has
  /// either slept on the clock again (a repeating timer) or finished — so a timer fires once
  /// per period passed, not once per `advance`. A woken task that then waits on something
  /// else is given a bounded number of scheduler round trips.
  public func advance(to deadline: Instant) async {
    await settle()
    while true {
      let due = timeline.withValue { timeline -> [Sleeper] in
        guard let next = timeline.sleepers.map(\.deadline).min(), next <= deadline else {
          if timeline.now < deadline { timeline.now = deadline }
          return []
        }
        timeline.now = max(timeline.now, next)
        let due = timeline.sleepers.filter { $0.deadline <= next }
        timeline.sleepers.removeAll { $0.deadline <= next }
        return due
      }
      if due.isEmpty { break }
      for sleeper in due { sleeper.continuation.resume() }
      let woken = due.compactMap(\.effect)
      await settle(rounds: woken.isEmpty ? 8 : 10_000) {
        self.timeline.withValue { timeline in
          woken.allSatisfy { effect in
            effect.isFinished || timeline.sleepers.contains { $0.effect === effect }
          }
        }
      }
    }
  }

  /// Advances until no task sleeps on the clock.
  public func run() async {
    while true {
      await settle()
      guard let last = timeline.withValue({ $0.sleepers.map(\.deadline).max() }) else { return }
      await advance(to: last)
    }
  }

}

/// Gives tasks that were just resumed a chance to run to their next suspension: a bounded
/// number of scheduler round trips (ending early once `done` holds), no wall-clock waiting.
/// `done` is evaluated on the caller's actor.
func settle(
  isolation: isolated (any Actor)? = #isolation,
  rounds: Int = 8,
  until done: () -> Bool = { false }
) async {
  for _ in 0..<rounds {
    if done() { return }
    await Task.detached(priority: .low) { await Task.yield() }.value
  }
}
