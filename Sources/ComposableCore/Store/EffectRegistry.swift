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
/// queries are O(1).
@usableFromInline
package final class EffectRegistry: @unchecked Sendable {
  package typealias Token = UInt64
  package typealias Callback = @MainActor @Sendable () -> Void

  private struct Record {
    let task: Task<Void, Never>
    var keys: [EffectKey]
    let origin: String?
    let lifetime: EffectLifetime?

    /// `false` once the effect's operation returned, even before its bookkeeping ran.
    var isRunning: Bool { lifetime?.isFinished != true }
  }

  private struct Entries {
    var records: [Token: Record] = [:]
    var tokensByKey: [EffectKey: Set<Token>] = [:]
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
    mutating func unindex(_ token: Token, keys: [EffectKey]) -> Bool {
      var emptied = false
      for key in keys {
        guard let index = tokensByKey.index(forKey: key) else { continue }
        tokensByKey.values[index].remove(token)
        if tokensByKey.values[index].isEmpty {
          tokensByKey.remove(at: index)
          emptied = true
        }
      }
      return emptied
    }

    /// The callbacks to run for these changes, or none while a batch holds them back.
    mutating func notifications(keys: Bool, effects: Bool) -> [Callback] {
      if batchDepth > 0 {
        keysChangedInBatch = keysChangedInBatch || keys
        effectsChangedInBatch = effectsChangedInBatch || effects
        return []
      }
      var callbacks: [Callback] = []
      if keys, let keysDidChange { callbacks.append(keysDidChange) }
      if effects, let effectsDidChange { callbacks.append(effectsDidChange) }
      return callbacks
    }
  }

  private let lock = NSLock()
  private var entries = Entries()

  package init() {}

  private func withEntries<R>(_ body: (inout Entries) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&entries)
  }

  @MainActor
  private func notify(_ callbacks: [Callback]) {
    for callback in callbacks { callback() }
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
    let callbacks = withEntries { entries -> [Callback] in
      entries.batchDepth -= 1
      guard entries.batchDepth == 0 else { return [] }
      let keys = entries.keysChangedInBatch
      let effects = entries.effectsChangedInBatch
      entries.keysChangedInBatch = false
      entries.effectsChangedInBatch = false
      return entries.notifications(keys: keys, effects: effects)
    }
    notify(callbacks)
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
  package func register(
    _ token: Token, task: Task<Void, Never>, keys: [EffectKey], origin: String?,
    lifetime: EffectLifetime?
  ) {
    let callbacks = withEntries { entries -> [Callback] in
      entries.records[token] = Record(task: task, keys: keys, origin: origin, lifetime: lifetime)
      var keysChanged = false
      for key in keys {
        if entries.tokensByKey[key] == nil { keysChanged = true }
        entries.tokensByKey[key, default: []].insert(token)
      }
      return keysChanged ? entries.notifications(keys: true, effects: false) : []
    }
    notify(callbacks)
  }

  /// Removes an effect that stopped (finished, or ended after being cancelled).
  @MainActor
  package func finish(_ token: Token) {
    let callbacks = withEntries { entries -> [Callback] in
      if entries.draining.removeValue(forKey: token) != nil {
        return entries.notifications(keys: false, effects: true)
      }
      guard let record = entries.records.removeValue(forKey: token) else { return [] }
      let keysChanged = entries.unindex(token, keys: record.keys)
      return entries.notifications(keys: keysChanged, effects: true)
    }
    notify(callbacks)
  }

  /// Cancels every effect running under `key`: at once it is no longer in flight under any
  /// key; it is tracked as draining until it has stopped. A no-op when nothing runs under `key`.
  @MainActor
  package func cancel(_ key: EffectKey) {
    let (tasks, callbacks) = withEntries {
      entries -> ([Task<Void, Never>], [Callback]) in
      guard let tokens = entries.tokensByKey[key] else { return ([], []) }
      var keysChanged = false
      var tasks: [Task<Void, Never>] = []
      for token in tokens {
        guard let record = entries.records.removeValue(forKey: token) else { continue }
        tasks.append(record.task)
        entries.draining[token] = record
        keysChanged = entries.unindex(token, keys: record.keys) || keysChanged
      }
      return (tasks, entries.notifications(keys: keysChanged, effects: true))
    }
    for task in tasks { task.cancel() }
    notify(callbacks)
  }

  /// Cancels the effects with these tokens (those of one `StoreTask`), as ``cancel(_:)`` does,
  /// from any task: they are out of flight at once; observers hear of it on the main actor.
  package func cancel(tokens: some Sequence<Token>) {
    let (tasks, callbacks) = withEntries {
      entries -> ([Task<Void, Never>], [Callback]) in
      var keysChanged = false
      var tasks: [Task<Void, Never>] = []
      for token in tokens {
        guard let record = entries.records.removeValue(forKey: token) else { continue }
        tasks.append(record.task)
        entries.draining[token] = record
        keysChanged = entries.unindex(token, keys: record.keys) || keysChanged
      }
      guard !tasks.isEmpty else { return ([], []) }
      return (tasks, entries.notifications(keys: keysChanged, effects: true))
    }
    for task in tasks { task.cancel() }
    if !callbacks.isEmpty {
      Task { @MainActor in self.notify(callbacks) }
    }
  }

  /// Cancels everything (a test skipping in-flight effects), notifying observers.
  @MainActor
  package func cancelAll() {
    notify(takeAll())
  }

  /// Cancels everything without notifying: for a store that is going away (its
  /// deinitializer), which nobody may observe any more.
  package func cancelAllSilently() {
    _ = takeAll()
  }

  private func takeAll() -> [Callback] {
    let (tasks, callbacks) = withEntries {
      entries -> ([Task<Void, Never>], [Callback]) in
      let all = entries.records
      entries.records = [:]
      entries.tokensByKey = [:]
      for (token, record) in all { entries.draining[token] = record }
      guard !all.isEmpty else { return ([], []) }
      return (all.values.map(\.task), entries.notifications(keys: true, effects: true))
    }
    for task in tasks { task.cancel() }
    return callbacks
  }
}
