import ComposableCore
import Foundation

/// Calls a handler once a deadline has passed, unless cancelled first: the bound of every wait
/// in the test tools.
///
/// Nearly every wait ends long before its deadline, so starting and cancelling a timer must
/// cost next to nothing: no task, no thread wake-up, no system call. A timer is an entry in
/// the process's ``DeadlineWatch`` (a lock and a dictionary insert; cancelling removes it).
///
/// ```swift
/// let timer = DeadlineTimer(deadline: deadline) { waiter.resume(returning: false) }
/// defer { timer.cancel() }
/// ```
struct DeadlineTimer: Sendable {
  private let id: UInt64

  /// Starts the timer. `handler` runs off the main actor, at most once, at the watch's first
  /// look after `deadline` (it looks every ``DeadlineWatch/resolution``).
  init(deadline: ContinuousClock.Instant, handler: @escaping @Sendable () -> Void) {
    id = DeadlineWatch.shared.add(deadline: deadline, handler: handler)
  }

  /// Stops the timer; its handler will not run (unless it already has).
  func cancel() {
    DeadlineWatch.shared.remove(id)
  }
}

/// The deadlines of the process's waits, and one thread that fires the passed ones.
///
/// The thread runs only while some deadline is registered (and for ``linger`` after the last
/// one went, so a test's back-to-back waits do not start a thread each), looking every
/// ``resolution``; the next registration starts it again. A wait costs a lock and a dictionary
/// entry instead of thread wake-ups (BENCHMARKS.md, "The test store's waits").
///
/// A thread of its own, not a task: the bounds must hold when the cooperative pool does not
/// run (effects that never suspend, or a synchronous wait on a cooperative thread, can take
/// every pool thread; a task that fires the deadlines would then never run, and the wait it
/// bounds would hang the suite instead of failing it).
final class DeadlineWatch: Sendable {
  static let shared = DeadlineWatch()

  /// How often the watch looks: a handler runs about this late after its deadline (later on a
  /// busy machine).
  static let resolution: Duration = .milliseconds(10)
  /// How long the thread stays after the last deadline went.
  static let linger: Duration = .seconds(1)

  private struct Entry {
    let deadline: ContinuousClock.Instant
    let handler: @Sendable () -> Void
  }

  private struct Registry {
    var entries: [UInt64: Entry] = [:]
    var lastID: UInt64 = 0
    var isWatching = false
  }

  private let registry = LockIsolated(Registry())

  /// Registers `handler` for `deadline`; returns the id that removes it. O(1) amortized.
  func add(deadline: ContinuousClock.Instant, handler: @escaping @Sendable () -> Void) -> UInt64 {
    let (id, startsWatching) = registry.withValue { registry in
      registry.lastID &+= 1
      registry.entries[registry.lastID] = Entry(deadline: deadline, handler: handler)
      defer { registry.isWatching = true }
      return (registry.lastID, !registry.isWatching)
    }
    if startsWatching {
      let thread = Thread { [self] in watch() }
      thread.name = "DeadlineWatch"
      thread.start()
    }
    return id
  }

  /// Forgets the deadline registered as `id`, if it has not fired. O(1).
  func remove(_ id: UInt64) {
    registry.withValue { _ = $0.entries.removeValue(forKey: id) }
  }

  /// Fires passed deadlines every ``resolution`` until none has been registered for
  /// ``linger``. O(registered) a look.
  private func watch() {
    var idleSince: ContinuousClock.Instant?
    while true {
      // sync-wait: the watch's own thread (never a cooperative one)
      Thread.sleep(forTimeInterval: Self.resolution / .seconds(1))
      let now = ContinuousClock.now
      let (due, isEmpty, stops) = registry.withValue { registry in
        let due = registry.entries.filter { $0.value.deadline <= now }
        for id in due.keys { registry.entries[id] = nil }
        let isEmpty = registry.entries.isEmpty
        let stops = isEmpty && idleSince.map { now - $0 >= Self.linger } == true
        if stops { registry.isWatching = false }
        return (due.values.map(\.handler), isEmpty, stops)
      }
      for handler in due { handler() }
      if stops { return }
      idleSince = isEmpty ? (idleSince ?? now) : nil
    }
  }
}
