import ComposableCore
import Foundation

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
/// `advance` wakes sleepers in deadline order. For the effects of a ``TestStore`` it waits,
/// before moving time and after waking each deadline's sleepers, until every one of the store's
/// effects is suspended again (asleep on this clock, waiting on something else, or finished):
/// an effect that works before its first sleep is never missed, and a repeating timer fires
/// exactly once per period passed. Tasks outside a test store are only given a few scheduler
/// round trips after waking: the clock cannot see what they do.
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
    /// Whether the sleeping task is a test store's effect.
    let isEffect: Bool
  }

  private struct Timeline {
    var now: Instant
    var sleepers: [Sleeper] = []
    var cancelled: Set<UInt64> = []
    var lastID: UInt64 = 0
    /// The test stores whose effects slept on (or were attached to) this clock.
    var monitors: [WeakEffectMonitor] = []

    mutating func remember(_ monitor: EffectMonitor) {
      monitors.removeAll { $0.monitor == nil }
      if !monitors.contains(where: { $0.monitor === monitor }) {
        monitors.append(WeakEffectMonitor(monitor: monitor))
      }
    }
  }

  private let timeline: LockIsolated<Timeline>
  /// The longest `advance` waits for a test store's effects to suspend, and the default bound
  /// of ``run(timeout:fileID:filePath:line:column:)``.
  public let timeout: Duration

  /// Creates a clock at `now`.
  ///
  /// - Parameters:
  ///   - now: where time starts.
  ///   - timeout: how long a wait for effects to suspend (or for
  ///     ``run(timeout:fileID:filePath:line:column:)``) may last before it fails the test.
  public init(now: Instant = Instant(), timeout: Duration = .seconds(5)) {
    self.timeline = LockIsolated(Timeline(now: now))
    self.timeout = timeout
  }

  public var now: Instant { timeline.withValue { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { timeline.withValue { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let monitor = EffectMonitor.current
    let id = timeline.withValue { timeline -> UInt64 in
      timeline.lastID += 1
      if let monitor { timeline.remember(monitor) }
      return timeline.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        enum Outcome { case wait, wake, cancel }
        let outcome = timeline.withValue { timeline -> Outcome in
          if timeline.cancelled.remove(id) != nil { return .cancel }
          if deadline <= timeline.now { return .wake }
          timeline.sleepers.append(
            Sleeper(
              id: id, deadline: deadline, continuation: continuation, isEffect: monitor != nil))
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

  /// Lets `advance` wait for a test store's effects even before one of them slept here.
  func attach(_ monitor: EffectMonitor) {
    timeline.withValue { $0.remember(monitor) }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline passes, in order.
  public func advance(
    by duration: Duration = .zero,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await advance(
      to: now.advanced(by: duration), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Moves time forward to `deadline` (never backwards), waking sleepers in order.
  ///
  /// Before moving time, and after waking the sleepers of each deadline, it waits until every
  /// effect of the test stores using this clock is suspended again — so a woken repeating
  /// timer sleeps again before time moves on, and fires once per period passed. An effect that
  /// does not suspend within ``timeout`` fails the test.
  public func advance(
    to deadline: Instant,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    _ = await advance(to: deadline, at: location, until: nil)
  }

  /// Moves time to `deadline` as `advance(to:)` does; with `limit`, stops (returning `false`)
  /// once that wall-clock instant passed, between two deadlines.
  private func advance(
    to deadline: Instant, at location: IssueLocation, until limit: ContinuousClock.Instant?
  ) async -> Bool {
    await waitForEffects(at: location)
    while true {
      if let limit, ContinuousClock.now >= limit { return false }
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
      if due.contains(where: { !$0.isEffect }) { await giveForeignTasksATurn() }
      await waitForEffects(at: location)
    }
    return true
  }

  /// Advances until no task sleeps on the clock. A sleeper that keeps sleeping again (a
  /// repeating timer) never lets that happen: after `timeout` (default ``timeout``) the test
  /// fails, naming what still sleeps. The bound holds however far the last sleeper is: time
  /// stops moving once it passed (plus at most one wait for effects to suspend).
  public func run(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let limit = timeout ?? self.timeout
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let end = ContinuousClock.now.advanced(by: limit)
    while true {
      await waitForEffects(at: location)
      guard let last = timeline.withValue({ $0.sleepers.map(\.deadline).max() }) else { return }
      var inTime = ContinuousClock.now < end
      if inTime { inTime = await advance(to: last, at: location, until: end) }
      guard inTime else {
        reportIssue(
          """
          TestClock.run() did not end within \(limit): tasks kept sleeping on the clock (a \
          repeating timer?). Still sleeping: \(sleepersDescription()). Advance by a fixed \
          duration instead, or cancel the timer.
          """,
          fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column
        )
        return
      }
    }
  }

  /// Waits until every test store known to this clock has all its effects suspended.
  private func waitForEffects(at location: IssueLocation) async {
    let monitors = timeline.withValue { timeline in
      timeline.monitors.removeAll { $0.monitor == nil }
      return timeline.monitors.compactMap(\.monitor)
    }
    for monitor in monitors {
      await monitor.waitUntilSuspended(timeout: timeout, at: location)
    }
  }

  private func sleepersDescription() -> String {
    let sleepers = timeline.withValue { $0.sleepers }
    let now = self.now
    return sleepers.map { "a task due at +\(now.duration(to: $0.deadline))" }
      .joined(separator: ", ")
  }

  /// Tasks outside a test store: the clock cannot see what they do after waking, so it gives
  /// them a few scheduler round trips to reach their next suspension (best effort).
  private func giveForeignTasksATurn() async {
    for _ in 0..<8 {
      await Task.detached(priority: .low) { await Task.yield() }.value
    }
  }
}
