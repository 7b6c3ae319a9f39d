import Foundation

/// The running effects of one store, keyed for cancellation.
///
/// Every store has its own registry, so stores (and parallel tests) never cancel each other's
/// work. The store changes it from the main actor; its state is guarded by a lock so that a
/// store released on another thread (its deinitializer is nonisolated), or a `StoreTask`
/// cancelled from any task, can take effects out of flight without racing the main actor.
/// Change notifications are delivered on the main actor, outside the lock.
///
/// Complexity: register, finish and cancel are O(k) in the number of keys involved; in-flight
/// queries are O(1). An effect under one key (or none) costs no allocation here beyond its
/// table entries.
@usableFromInline
package final class EffectRegistry: @unchecked Sendable {
  package typealias Token = UInt64
  package typealias Callback = @MainActor @Sendable () -> Void

  private struct Record {
    let task: Task<Void, Never>
    var keys: EffectKeys
    let origin: String?
    let lifetime: EffectLifetime?

    /// `false` once the effect's operation returned, even before its bookkeeping ran. Read
    /// with the registry's lock held.
    var isRunning: Bool { lifetime?.isFinishedWhileLocked != true }
  }

  private struct Entries {
    var records: [Token: Record] = [:]
    var tokensByKey: [EffectKey: EffectTokens] = [:]
    /// Cancelled effects that have not stopped yet: no longer in flight under any key, but
    /// still awaited by `TestStore.finish()` and named by its diagnostics.
    var draining: [Token: Record] = [:]
    var lastToken: Token = 0
    /// While positive, notifications are held back and sent once when the outermost batch ends.
    var batchDepth = 0
    var keysChangedInBatch = false
    var effectsChangedInBatch = false
    var keysDidChange: Callback?
    var effectsDidChange: Callback?

    /// Returns whether a key lost its last effect.
    mutating func unindex(_ token: Token, keys: EffectKeys) -> Bool {
      var emptied = false
      for key in keys {
        guard let index = tokensByKey.index(forKey: key) else { continue }
        if tokensByKey.values[index].remove(token) {
          tokensByKey.remove(at: index)
          emptied = true
        }
      }
      return emptied
    }

    /// Takes the effect `token` out of flight (it is draining until it stops); answers its
    /// task and whether a key lost its last effect.
    mutating func takeOutOfFlight(_ token: Token) -> (task: Task<Void, Never>, emptied: Bool)? {
      guard let record = records.removeValue(forKey: token) else { return nil }
      draining[token] = record
      return (record.task, unindex(token, keys: record.keys))
    }

    /// The callbacks to run for these changes, or none while a batch holds them back.
    mutating func notifications(keys: Bool, effects: Bool) -> Notifications {
      if batchDepth > 0 {
        keysChangedInBatch = keysChangedInBatch || keys
        effectsChangedInBatch = effectsChangedInBatch || effects
        return Notifications()
      }
      return Notifications(
        keys: keys ? keysDidChange : nil, effects: effects ? effectsDidChange : nil)
    }
  }

  /// The tasks one cancellation took out of flight: usually one, kept without an array.
  private struct CancelledTasks {
    private var first: Task<Void, Never>?
    private var others: [Task<Void, Never>] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ task: Task<Void, Never>) {
      if first == nil { first = task } else { others.append(task) }
    }

    func cancelAll() {
      first?.cancel()
      for task in others { task.cancel() }
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
  }

  private let lock = PlatformLock()
  private var entries = Entries()

  package init() {}

  private func withEntries<R>(_ body: (inout Entries) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&entries)
  }

  /// Runs `body` holding the registry's lock, which also guards the small per-effect state of
  /// this store (``EffectLifetime``, `StoreTask.Box`): one lock per store, none per effect.
  /// `body` must not call back into the registry.
  func withLock<R>(_ body: () -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// Called when the set of in-flight keys changes (not on every start or finish).
  package func onKeysChange(_ callback: @escaping Callback) {
    withEntries { $0.keysDidChange = callback }
  }

  /// Called after any effect finished or was cancelled.
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
  package var count: Int { withEntries { $0.records.count + $0.draining.count } }

  /// Whether anything runs under `key`.
  package func isInFlight(_ key: EffectKey) -> Bool {
    withEntries { $0.tokensByKey[key] != nil }
  }

  /// What started each effect whose work has not returned yet (recorded only when the engine
  /// asks), oldest first: `running` are in flight, `cancelled` were cancelled and have not
  /// stopped yet (their work ignores cancellation, or has not reached a suspension point).
  package var unfinishedOrigins: (running: [String], cancelled: [String]) {
    withEntries { entries in
      func origins(_ records: [Token: Record]) -> [String] {
        records.keys.sorted().compactMap { token in
          records[token].flatMap { $0.isRunning ? $0.origin : nil }
        }
      }
      return (origins(entries.records), origins(entries.draining))
    }
  }

  package func makeToken() -> Token {
    withEntries { entries in
      entries.lastToken &+= 1
      return entries.lastToken
    }
  }

  @MainActor
  func register(
    _ token: Token, task: Task<Void, Never>, keys: EffectKeys, origin: String?,
    lifetime: EffectLifetime?
  ) {
    withEntries { entries -> Notifications in
      entries.records[token] = Record(task: task, keys: keys, origin: origin, lifetime: lifetime)
      var keysChanged = false
      for key in keys {
        if let index = entries.tokensByKey.index(forKey: key) {
          entries.tokensByKey.values[index].insert(token)
        } else {
          entries.tokensByKey[key] = EffectTokens(token)
          keysChanged = true
        }
      }
      return keysChanged ? entries.notifications(keys: true, effects: false) : Notifications()
    }.send()
  }

  /// Removes an effect that stopped (finished, or ended after being cancelled).
  @MainActor
  package func finish(_ token: Token) {
    withEntries { entries -> Notifications in
      if entries.draining.removeValue(forKey: token) != nil {
        return entries.notifications(keys: false, effects: true)
      }
      guard let record = entries.records.removeValue(forKey: token) else { return Notifications() }
      let keysChanged = entries.unindex(token, keys: record.keys)
      return entries.notifications(keys: keysChanged, effects: true)
    }.send()
  }

  /// Cancels every effect running under any of `keys`: at once it is no longer in flight under
  /// any key; it is tracked as draining until it has stopped. Keys with nothing in flight are
  /// skipped. Observers hear of it once, however many keys.
  @MainActor
  func cancel(_ keys: EffectKeys) {
    let (cancelled, notifications) = withEntries { entries -> (CancelledTasks, Notifications) in
      var cancelled = CancelledTasks()
      for key in keys {
        // The key goes first, so its tokens are not copied while they are taken out.
        guard let tokens = entries.tokensByKey.removeValue(forKey: key) else { continue }
        for token in tokens {
          if let (task, _) = entries.takeOutOfFlight(token) { cancelled.append(task) }
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
  @MainActor
  package func cancel(_ key: EffectKey) {
    cancel(EffectKeys(key))
  }

  /// Cancels the effects with these tokens (those of one `StoreTask`), as ``cancel(_:)`` does,
  /// from any task: they are out of flight at once; observers hear of it on the main actor.
  package func cancel(tokens: some Sequence<Token>) {
    let (tasks, notifications) = withEntries {
      entries -> ([Task<Void, Never>], Notifications) in
      var keysChanged = false
      var tasks: [Task<Void, Never>] = []
      for token in tokens {
        guard let (task, emptied) = entries.takeOutOfFlight(token) else { continue }
        tasks.append(task)
        keysChanged = keysChanged || emptied
      }
      guard !tasks.isEmpty else { return ([], Notifications()) }
      return (tasks, entries.notifications(keys: keysChanged, effects: true))
    }
    for task in tasks { task.cancel() }
    if !notifications.isEmpty {
      Task { @MainActor in notifications.send() }
    }
  }

  /// Cancels everything (a test skipping in-flight effects), notifying observers.
  @MainActor
  package func cancelAll() {
    takeAll().send()
  }

  /// Cancels everything without notifying: for a store that is going away (its
  /// deinitializer), which nobody may observe any more.
  package func cancelAllSilently() {
    _ = takeAll()
  }

  private func takeAll() -> Notifications {
    let (tasks, notifications) = withEntries {
      entries -> ([Task<Void, Never>], Notifications) in
      let all = entries.records
      entries.records = [:]
      entries.tokensByKey = [:]
      for (token, record) in all { entries.draining[token] = record }
      guard !all.isEmpty else { return ([], Notifications()) }
      return (all.values.map(\.task), entries.notifications(keys: true, effects: true))
    }
    for task in tasks { task.cancel() }
    return notifications
  }
}
