import ComposableCore

/// A test store's knowledge of its running effects, shared with the ``TestClock``s they sleep
/// on: it starts the effects' tasks and tells when all of them are suspended.
///
/// On macOS 15 / iOS 18 and later (and always on Linux) effects run on an ``EffectExecutor``,
/// which makes "every effect is suspended" exact. On older Apple systems, where task executors
/// do not exist, it falls back to a bounded number of scheduler round trips — a best effort.
final class EffectMonitor: Sendable {
  /// The monitor of the test store whose effect the current task works for.
  @TaskLocal static var current: EffectMonitor?

  private let executor: (any Sendable)?
  /// The test store, which describes what runs and fails the test when a wait times out.
  @MainActor weak var owner: (any EffectMonitorOwner)?

  init() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      self.executor = EffectExecutor()
    } else {
      self.executor = nil
    }
  }

  /// Starts an effect's task, marked as this store's. (The mark is bound around the task's
  /// creation, which copies it: the operation keeps its isolation and starts there directly.)
  func startTask(
    priority: TaskPriority?, operation: @escaping @Sendable @isolated(any) () async -> Void
  ) -> Task<Void, Never> {
    Self.$current.withValue(self) {
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
        let executor = executor as? EffectExecutor
      {
        return executor.startTask(priority: priority, operation: operation)
      }
      return Task(priority: priority, operation: operation)
    }
  }

  /// Records main-actor work of the store, so a wait in progress looks again.
  func noteActivity() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
      let executor = executor as? EffectExecutor
    {
      executor.noteActivity()
    }
  }

  /// Waits until every effect is suspended or finished; fails the test (naming what runs) and
  /// returns `false` when that takes longer than `timeout`.
  @MainActor
  @discardableResult
  func waitUntilSuspended(timeout: Duration, at location: IssueLocation) async -> Bool {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
      let executor = executor as? EffectExecutor
    {
      guard await executor.waitUntilSuspended(timeout: timeout) else {
        owner?.monitorFailed(
          """
          Expected the store's effects to suspend (sleep, await something, or finish) within \
          \(timeout), but one kept running. \(owner?.describeRunningEffects() ?? "") Give \
          work that computes for long or blocks its thread a test double. (When no effect's \
          work is running, the main actor was kept busy for that long: look for long \
          synchronous work on it.)
          """,
          at: location
        )
        return false
      }
      return true
    }
    for _ in 0..<64 {
      await Task.detached(priority: .low) { await Task.yield() }.value
    }
    return true
  }
}

/// The test store a monitor works for.
@MainActor
protocol EffectMonitorOwner: AnyObject {
  /// What still runs, for a wait that timed out.
  func describeRunningEffects() -> String
  /// Fails the test.
  func monitorFailed(_ message: String, at location: IssueLocation)
}

/// A clock's reference to a test store's monitor, which does not keep the store's effects
/// machinery alive.
struct WeakEffectMonitor {
  weak var monitor: EffectMonitor?
}
