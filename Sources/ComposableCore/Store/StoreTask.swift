/// The in-flight work of an action: every effect it (and actions it sent synchronously with
/// `.send`) started, and — transitively — the effects of actions those effects send back.
///
/// ```swift
/// await store.send(.authorizationInvalidated).finish()
/// await store.send(.refreshAdmission).finish()
/// ```
///
/// Effects the action cancels (`.cancel(id:)`, `cancelInFlight`) belong to the sends that
/// started them, so its task does not wait for them (as in TCA); `TestStore.finish()` waits for
/// every effect in flight. An effect of this send that was cancelled is waited for until its
/// operation returns: from the cancellation on it can no longer send or modify state (its late
/// answer never lands), but work that ignores cancellation keeps ``finish(isolation:)``
/// waiting. A task whose effects never end (a timer) never finishes; cancel it. In tests,
/// prefer the bounded `finish(timeout:)` that ComposableTesting adds.
public struct StoreTask: Sendable {
  /// The effects of one send; effects of that send add to it while they run. Guarded by its
  /// store's registry lock (no lock of its own).
  @usableFromInline
  final class Box: @unchecked Sendable {
    private struct Started {
      let task: Task<Void, Never>
      /// The effect's record while it runs, so cancelling this send takes it out of flight.
      /// Dropped when it ends: a send's task, which callers may keep, must not keep what the
      /// effect captured (nor this box, which the effect holds for the actions it sends).
      var record: EffectLifetime?
    }

    /// Guarded by `registry`'s lock: the first effect (most sends start one, and need no
    /// array), then the others.
    private var first: Started?
    private var others: [Started] = []
    /// The registry the effects are registered in, so cancelling them takes them out of
    /// flight at once, as `.cancel(id:)` does.
    private let registry: EffectRegistry

    @usableFromInline
    init(registry: EffectRegistry) {
      self.registry = registry
    }

    /// Adds an effect as it is registered; returns its position. Called with the registry's
    /// lock held.
    func appendWhileLocked(_ task: Task<Void, Never>, record: EffectLifetime) -> UInt32 {
      let started = Started(task: task, record: record)
      if first == nil {
        first = started
        return 0
      }
      others.append(started)
      return UInt32(truncatingIfNeeded: others.count)
    }

    /// Forgets the record of the effect at `position`, which ended. Called with the
    /// registry's lock held.
    func forgetRecordWhileLocked(at position: UInt32) {
      if position == 0 { first?.record = nil } else { others[Int(position) - 1].record = nil }
    }

    /// The task at `position`, once that many have started.
    func task(at position: Int) -> Task<Void, Never>? {
      registry.withLock { started(at: position)?.task }
    }

    /// The tasks from position `start` on.
    func tasks(from start: Int) -> [Task<Void, Never>] {
      registry.withLock { allStarted.dropFirst(start).map(\.task) }
    }

    /// Called with the registry's lock held.
    private func started(at position: Int) -> Started? {
      if position == 0 { return first }
      return position - 1 < others.count ? others[position - 1] : nil
    }

    /// Called with the registry's lock held.
    private var allStarted: [Started] {
      guard let first else { return [] }
      return [first] + others
    }

    func cancel() {
      let all = registry.withLock { allStarted }
      registry.cancel(records: all.compactMap(\.record))
      // Also the tasks already out of flight (cancelled by id, draining): every one it started.
      for started in all { started.task.cancel() }
    }
  }

  @usableFromInline let box: Box?

  /// The task of an action that started no effect.
  @usableFromInline
  init() {
    self.box = nil
  }

  @usableFromInline
  init(_ box: Box) {
    self.box = box
  }

  /// Cancels every effect of the action. Their ids are no longer in flight from this moment,
  /// and nothing they send or modify afterwards is applied.
  public func cancel() {
    box?.cancel()
  }

  /// Waits until every effect of the action has returned, including effects started meanwhile
  /// by actions they sent, and cancelled ones. Cancelling the waiting task cancels the effects.
  ///
  /// Waits on the caller's actor (on the main actor when called from it), so a round trip
  /// `await store.send(.ping).finish()` makes no hop of its own.
  public func finish(isolation: isolated (any Actor)? = #isolation) async {
    // Each task's value, not a continuation the last effect's bookkeeping resumes: that saved
    // a context switch per round trip but cost `effect_roundtrip_per_s` a fifth (BENCHMARKS.md,
    // "Third pass").
    guard let box else { return }
    await withTaskCancellationHandler {
      // Captured: the closure is isolated to the caller's actor and waits there. Without it the
      // closure is nonisolated: each wait resumes on the global executor and hops back, one
      // thread wake-up more per round trip.
      _ = isolation
      var awaited = 0
      while let task = box.task(at: awaited) {
        await task.value
        awaited += 1
      }
    } onCancel: {
      cancel()
    }
  }

  /// The tasks of the action's effects started so far, from position `start` on (effects add
  /// tasks while they run). For bounded waits in tests.
  package func tasks(from start: Int) -> [Task<Void, Never>] {
    box?.tasks(from: start) ?? []
  }

  /// `true` when every effect of the action was cancelled, or the action started none.
  public var isCancelled: Bool {
    (box?.tasks(from: 0) ?? []).allSatisfy(\.isCancelled)
  }
}
