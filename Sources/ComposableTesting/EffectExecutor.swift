import ComposableCore
import Dispatch
import Foundation

/// Where a test store's effects run, so the store can tell — as a fact, not a guess — when
/// every effect is suspended.
///
/// Each effect task is started with this executor as its task-executor preference (SE-0417):
/// its nonisolated code, default actors it calls and the child tasks it creates all run here.
/// The executor counts the jobs it holds, so "no job is queued or running" is known exactly.
/// What it cannot see is an effect's hop to the main actor (`send`, `state.modify`, main-actor
/// clients); those are covered by a round trip through the main actor's serial queue: every
/// main-actor job enqueued before the round trip has run when it returns, and whatever that job
/// did next (hop back here, process an action) moves a marker the check compares. So
/// ``waitUntilSuspended(timeout:)`` returns once every effect is suspended — on a clock, on
/// another task, or on something outside the test (a real network call) — or has finished.
///
/// Not covered: an effect that keeps re-suspending on the main actor itself (a main-actor
/// function awaiting a main-actor `Task.yield()` in a loop), actors with custom executors, and
/// unstructured tasks an effect spawns (`Task { }` does not inherit the preference). Those run
/// "outside" the store, like a network call.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class EffectExecutor: TaskExecutor, Sendable {
  private struct Counters {
    /// Jobs enqueued and not finished.
    var pending = 0
    /// Moves on every job enqueued or finished, and on every piece of main-actor work the store
    /// reports. (A job that finishes may have queued main-actor work just before: behind a
    /// round trip already under way, which therefore must be repeated.)
    var marker: UInt64 = 0
    var idleWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    /// Waits whose deadline passed before they began waiting.
    var expiredWaiters: Set<UInt64> = []
    var lastWaiter: UInt64 = 0
  }

  /// Serial: one effect job at a time, in order, on a thread of its own. (A serial queue gets
  /// a thread even when the width-limited global pool is busy with blocking work elsewhere in
  /// the process; a concurrent queue would wait behind it.)
  private let queue = DispatchQueue(label: "ComposableTesting.EffectExecutor")
  private let counters = LockIsolated(Counters())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    counters.withValue {
      $0.pending += 1
      $0.marker &+= 1
    }
    queue.async { [self] in
      job.runSynchronously(on: asUnownedTaskExecutor())
      let waiters = counters.withValue { counters -> [CheckedContinuation<Bool, Never>] in
        counters.pending -= 1
        counters.marker &+= 1
        guard counters.pending == 0 else { return [] }
        defer { counters.idleWaiters = [:] }
        return Array(counters.idleWaiters.values)
      }
      for waiter in waiters { waiter.resume(returning: true) }
    }
  }

  /// Starts an effect's task here.
  func startTask(
    priority: TaskPriority?, operation: @escaping @Sendable @isolated(any) () async -> Void
  ) -> Task<Void, Never> {
    Task(executorPreference: self, priority: priority, operation: operation)
  }

  /// Records main-actor work of the store (an item processed, an effect ended), so a check in
  /// progress sees that something happened.
  func noteActivity() {
    counters.withValue { $0.marker &+= 1 }
  }

  /// Waits until every effect is suspended or finished. Returns `false` when the effects made
  /// no progress for `timeout` (an effect kept running: a busy loop, or blocking work), or kept
  /// making progress without ever settling (see ``ProgressDeadline``).
  ///
  /// Progress is a change of the marker across a trip through the main actor: the effects did
  /// something (a job here, an action or a finished effect there).
  @MainActor
  func waitUntilSuspended(timeout: Duration) async -> Bool {
    var deadline = ProgressDeadline(timeout: timeout)
    var seen = counters.withValue { $0.marker }
    while true {
      guard await waitUntilIdle(until: deadline.instant) else { return false }
      let marker = counters.withValue { $0.marker }
      // One trip through the main actor's serial queue: main-actor work that effects queued
      // before now runs first (see the type's documentation).
      await Task.yield()
      let (settled, after) = counters.withValue {
        ($0.pending == 0 && $0.marker == marker, $0.marker)
      }
      if settled { return true }
      if after != seen {
        seen = after
        deadline.progressed()
      }
      if deadline.hasPassed { return false }
    }
  }

  /// Waits until no job is queued or running (`true`), or `deadline` passes (`false`).
  @MainActor
  private func waitUntilIdle(until deadline: ContinuousClock.Instant) async -> Bool {
    let id = counters.withValue { counters -> UInt64? in
      guard counters.pending > 0 else { return nil }
      counters.lastWaiter &+= 1
      return counters.lastWaiter
    }
    guard let id else { return true }
    // Off the main actor: the deadline is kept even while the main actor is busy elsewhere.
    let timer = DeadlineTimer(deadline: deadline) { [counters] in
      let waiter = counters.withValue { counters in
        guard let waiter = counters.idleWaiters.removeValue(forKey: id) else {
          counters.expiredWaiters.insert(id)
          return nil as CheckedContinuation<Bool, Never>?
        }
        return waiter
      }
      waiter?.resume(returning: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      let answer = counters.withValue { counters -> Bool? in
        if counters.expiredWaiters.remove(id) != nil { return false }
        guard counters.pending > 0 else { return true }
        counters.idleWaiters[id] = continuation
        return nil
      }
      if let answer { continuation.resume(returning: answer) }
    }
  }
}
