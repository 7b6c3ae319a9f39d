import Foundation

/// The running effects of one store, keyed for cancellation.
///
/// Every store has its own registry, so stores (and parallel tests) never cancel each other's
/// work. The store changes it from the main actor; its state is guarded by a lock so that an
/// effect marking its operation returned on its own thread, a store released on another
/// thread (its deinitializer is nonisolated), or a `StoreTask` cancelled from any task, can
/// change it without racing the main actor. Change notifications are delivered on the main actor,
/// outside the lock.
///
/// An effect's record (``EffectLifetime``) is its entry: the registry links the records of
/// effects that have not stopped into one list, oldest first, and indexes the ones in flight by
/// key. A record's place says whether it is in flight or cancelled (draining), so cancelling
/// an effect changes no list.
///
/// Complexity: register, finish and cancel are O(k) in the number of keys involved, with one
/// table operation per key and none for an effect without keys; in-flight queries are O(1).
@usableFromInline
package final class EffectRegistry: @unchecked Sendable {
  package typealias Callback = @MainActor @Sendable () -> Void

  private struct Entries {
    /// Effects that have not stopped, oldest first: in flight, or cancelled (draining: no
    /// longer in flight under any key, but still awaited by `TestStore.finish()` and named by
    /// its diagnostics).
    var live = EffectList()
    var recordsByKey = EffectKeyIndex()
    /// What started each effect, when the engine records it (a test store's diagnostics):
    /// kept here, not in every record.
    var origins: [ObjectIdentifier: String] = [:]
    /// While positive, notifications are held back and sent once when the outermost batch ends.
    var batchDepth = 0
    var keysChangedInBatch = false
    var effectsChangedInBatch = false
    /// Whether in-flight keys were read for observation (``isInFlight(_:observing:)``) since
    /// the last keys notification: until then, a change of keys notifies nobody.
    var keysAreObserved = false
    var keysDidChange: Callback?
    var effectsDidChange: Callback?

    /// Takes `record` out of the index of each of its keys; with `afterRemovingOne`, the caller
    /// already took `record` out from under one of its keys. Returns whether a key lost its
    /// last effect.
    mutating func unindex(_ record: EffectLifetime, afterRemovingOne: Bool = false) -> Bool {
      // An effect under no key, or under just the removed one, has nothing else to take out.
      if record.keyCount == 0 || (afterRemovingOne && record.keyCount == 1) { return false }
      var emptied = false
      for key in record.keys where recordsByKey.remove(record, under: key) {
        emptied = true
      }
      return emptied
    }

    /// Takes a running effect out of flight (it is draining until it stops); answers whether
    /// a key lost its last effect.
    mutating func takeOutOfFlight(_ record: EffectLifetime, afterRemovingOne: Bool = false)
      -> Bool
    {
      record.place = .draining
      return unindex(record, afterRemovingOne: afterRemovingOne)
    }

    /// The callbacks to run for these changes, or none while a batch holds them back.
    mutating func notifications(keys: Bool, effects: Bool) -> Notifications {
      if batchDepth > 0 {
        keysChangedInBatch = keysChangedInBatch || keys
        effectsChangedInBatch = effectsChangedInBatch || effects
        return Notifications()
      }
      let notifiesKeys = keys && keysAreObserved
      if notifiesKeys { keysAreObserved = false }
      return Notifications(
        keys: notifiesKeys ? keysDidChange : nil, effects: effects ? effectsDidChange : nil)
    }

    /// Marks an effect that stopped finished and takes it out of the registry; returns the
    /// notifications due.
    mutating func remove(_ record: EffectLifetime) -> Notifications {
      record.markFinishedWhileLocked()
      record.box?.forgetRecordWhileLocked(at: record.positionInBox)
      record.box = nil
      if !origins.isEmpty { origins[ObjectIdentifier(record)] = nil }
      switch record.place {
      case .draining, .inFlight:
        // A draining effect was taken out of the key index when it was cancelled.
        let keysChanged = record.place == .inFlight && unindex(record)
        live.remove(record)
        record.place = .ended
        return notifications(keys: keysChanged, effects: true)
      case .unregistered, .ended:
        return Notifications()
      }
    }
  }

  /// The tasks one cancellation took out of flight: usually one, kept without an array.
  private struct CancelledTasks {
    private var first: Task<Void, Never>?
    private var others: [Task<Void, Never>] = []

    var isEmpty: Bool { first == nil }

    /// Makes room for `count` tasks in all.
    mutating func reserveCapacity(_ count: Int) {
      if count > 1 { others.reserveCapacity(count - 1) }
    }

    mutating func append(_ task: Task<Void, Never>) {
      if first == nil { first = task } else { others.append(task) }
    }

    func cancelAll() {
      first?.cancel()
      // By index: an array's iterator would retain each task (its memory is shared with the
      // workers that are ending the tasks already cancelled).
      for index in others.indices { others[index].cancel() }
    }
  }

  /// The change callbacks due (at most one of each kind), run outside the lock.
  private struct Notifications: Sendable {
    var keys: Callback?
    var effects: Callback?

    var isEmpty: Bool { keys == nil && effects == nil }

    @MainActor
    func send() {
      keys?()
      effects?()
    }

    /// Sends them on the main actor, from any thread (in a task; none when nothing is due).
    func sendFromAnyThread() {
      guard !isEmpty else { return }
      Task { @MainActor in send() }
    }
  }

  private let lock = PlatformLock()
  private var entries = Entries()

  package init() {}

  private func withEntries<R>(_ body: (inout Entries) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&entries)
  }

  /// Runs `body` holding the registry's lock, which also guards the records of this store's
  /// effects (``EffectLifetime``) and its `StoreTask` boxes: one lock per store, none per
  /// effect. `body` must not call back into the registry.
  func withLock<R>(_ body: () -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// Called when the set of in-flight keys changes after it was read for observation
  /// (``isInFlight(_:observing:)``), once until it is read so again; not on every start or
  /// finish.
  package func onKeysChange(_ callback: @escaping Callback) {
    withEntries { $0.keysDidChange = callback }
  }

  /// Called after any effect finished or was cancelled: at once, on the main actor, where every
  /// effect ends and where `.cancel` effects cancel; from a main-actor task when a `StoreTask`
  /// is cancelled (from any task).
  package func onEffectsChange(_ callback: @escaping Callback) {
    withEntries { $0.effectsDidChange = callback }
  }

  /// Runs `body` (which may start and cancel many effects) with one notification of each kind
  /// at its end instead of one per effect.
  @MainActor
  package func batch(_ body: () -> Void) {
    withEntries { $0.batchDepth += 1 }
    body()
    withEntries { entries -> Notifications in
      entries.batchDepth -= 1
      guard entries.batchDepth == 0 else { return Notifications() }
      let keys = entries.keysChangedInBatch
      let effects = entries.effectsChangedInBatch
      entries.keysChangedInBatch = false
      entries.effectsChangedInBatch = false
      return entries.notifications(keys: keys, effects: effects)
    }.send()
  }

  /// How many effects are running, including cancelled ones that have not stopped yet.
  package var count: Int { withEntries { $0.live.count } }

  /// Whether anything runs under `key`. With `observing`, the next change of in-flight keys
  /// calls the ``onKeysChange(_:)`` callback.
  package func isInFlight(_ key: EffectKey, observing: Bool = false) -> Bool {
    withEntries { entries in
      if observing { entries.keysAreObserved = true }
      return entries.recordsByKey.contains(key)
    }
  }

  /// What started each effect whose work has not returned yet (recorded only when the engine
  /// asks), oldest first: `running` are in flight, `cancelled` were cancelled and have not
  /// stopped yet (their work ignores cancellation, or has not reached a suspension point).
  package var unfinishedOrigins: (running: [String], cancelled: [String]) {
    withEntries { entries in
      var running: [String] = []
      var cancelled: [String] = []
      // The list is in registration order.
      for record in entries.live where !record.isFinishedWhileLocked {
        guard let origin = entries.origins[ObjectIdentifier(record)] else { continue }
        if record.place == .draining {
          cancelled.append(origin)
        } else {
          running.append(origin)
        }
      }
      return (running, cancelled)
    }
  }

  /// Registers the effect `record` runs, with its task, under `keys`, and adds it to the
  /// `StoreTask` box of the send it belongs to (under the same lock).
  @MainActor @usableFromInline
  func register(
    _ record: EffectLifetime, task: Task<Void, Never>, keys: EffectKeys, origin: String?,
    into box: StoreTask.Box
  ) {
    withEntries { entries -> Notifications in
      record.positionInBox = box.appendWhileLocked(task, record: record)
      record.box = box
      if let origin {
        entries.origins[ObjectIdentifier(record)] = origin
      }
      record.task = task
      record.keys = keys
      record.keyCount = UInt16(clamping: keys.count)
      record.place = .inFlight
      entries.live.append(record)
      var keysChanged = false
      for key in keys {
        if entries.recordsByKey.insert(record, under: key) {
          keysChanged = true
        }
      }
      return keysChanged ? entries.notifications(keys: true, effects: false) : Notifications()
    }.send()
  }

  /// Marks an effect that stopped (finished, or ended after being cancelled) finished and
  /// removes it.
  @MainActor
  package func finish(_ record: EffectLifetime) {
    withEntries { $0.remove(record) }.send()
  }

  /// ``finish(_:)`` for a caller on the main actor that the compiler cannot see is there (a
  /// task's closure isolated to the main actor's instance, not to `@MainActor`). The
  /// assumption is checked only when observers are due a notification: its closure costs an
  /// allocation.
  func finishOnMainActor(_ record: EffectLifetime) {
    let notifications = withEntries { $0.remove(record) }
    guard !notifications.isEmpty else { return }
    MainActor.assumeIsolated { notifications.send() }
  }

  /// Cancels every effect running under any of `keys`: at once it is no longer in flight under
  /// any key; it is tracked as draining until it has stopped. Keys with nothing in flight are
  /// skipped. Observers hear of it once, however many keys.
  @MainActor @usableFromInline
  func cancel(_ keys: EffectKeys) {
    let (cancelled, notifications) = withEntries { entries -> (CancelledTasks, Notifications) in
      var cancelled = CancelledTasks()
      cancelled.reserveCapacity(keys.count)
      for key in keys {
        // The key's records go first (its whole entry, unless a colliding key shares it), so
        // they are not copied while they are taken out.
        entries.recordsByKey.removeAll(under: key).forEachRecord { record in
          guard record.place == .inFlight else { return }
          _ = entries.takeOutOfFlight(record, afterRemovingOne: true)
          if let task = record.task { cancelled.append(task) }
        }
      }
      guard !cancelled.isEmpty else { return (cancelled, Notifications()) }
      return (cancelled, entries.notifications(keys: true, effects: true))
    }
    // Outside the lock: a task's cancellation handler may call back in.
    cancelled.cancelAll()
    notifications.send()
  }

  /// Cancels every effect running under `key`, as cancelling under several keys does.
  @MainActor @usableFromInline
  package func cancel(_ key: EffectKey) {
    cancel(EffectKeys(key))
  }

  /// Cancels these effects (those of one `StoreTask`), as ``cancel(_:)`` does, from any task:
  /// they are out of flight at once; observers hear of it on the main actor.
  func cancel(records: [EffectLifetime]) {
    let (tasks, notifications) = withEntries {
      entries -> ([Task<Void, Never>], Notifications) in
      var keysChanged = false
      var tookAny = false
      var tasks: [Task<Void, Never>] = []
      for record in records where record.place == .inFlight {
        keysChanged = entries.takeOutOfFlight(record) || keysChanged
        tookAny = true
        if let task = record.task { tasks.append(task) }
      }
      guard tookAny else { return ([], Notifications()) }
      return (tasks, entries.notifications(keys: keysChanged, effects: true))
    }
    for task in tasks { task.cancel() }
    notifications.sendFromAnyThread()
  }

  /// Cancels everything (a test skipping in-flight effects), notifying observers.
  @MainActor
  package func cancelAll() {
    takeAll().send()
  }

  /// Cancels everything without notifying: for a store that is going away (its
  /// deinitializer), which nobody may observe any more. Only there: it also forgets that
  /// in-flight keys were read, so on a live store observers would hear of nothing more.
  package func cancelAllSilently() {
    _ = takeAll()
  }

  private func takeAll() -> Notifications {
    let (tasks, notifications) = withEntries {
      entries -> ([Task<Void, Never>], Notifications) in
      var tasks: [Task<Void, Never>] = []
      var tookAny = false
      for record in entries.live where record.place == .inFlight {
        record.place = .draining
        tookAny = true
        if let task = record.task { tasks.append(task) }
      }
      guard tookAny else { return ([], Notifications()) }
      entries.recordsByKey.removeAll()
      return (tasks, entries.notifications(keys: true, effects: true))
    }
    for task in tasks { task.cancel() }
    return notifications
  }
}
