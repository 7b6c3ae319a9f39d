/// The running effects of one store, keyed for cancellation.
///
/// Every store has its own registry, so stores (and parallel tests) never cancel each other's
/// work. All access is from the main actor; the type is `Sendable` only so a store's
/// deinitializer can cancel what is left.
///
/// Complexity: register, finish and cancel are O(k) in the number of keys involved; in-flight
/// queries are O(1).
@usableFromInline
package final class EffectRegistry: @unchecked Sendable {
  package typealias Token = UInt64

  private struct Record {
    let task: Task<Void, Never>
    var keys: [EffectKey]
    let origin: String?
    let lifetime: EffectLifetime?

    /// `false` once the effect's operation returned, even before its bookkeeping ran.
    var isRunning: Bool { lifetime?.isFinished != true }
  }

  private var records: [Token: Record] = [:]
  private var tokensByKey: [EffectKey: Set<Token>] = [:]
  /// Cancelled effects that have not stopped yet: no longer in flight under any key, but
  /// still awaited by `TestStore.finish()`.
  private var draining: [Token: Task<Void, Never>] = [:]
  private var lastToken: Token = 0

  /// Called when the set of in-flight keys changes (not on every start or finish).
  package var keysDidChange: (() -> Void)?
  /// Called after any effect finished or was cancelled.
  package var effectsDidChange: (() -> Void)?

  /// While positive, notifications are held back and sent once when the outermost batch ends.
  private var batchDepth = 0
  private var keysChangedInBatch = false
  private var effectsChangedInBatch = false

  package init() {}

  /// Runs `body` (which may start and cancel many effects) with one notification of each kind
  /// at its end instead of one per effect.
  package func batch(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    guard batchDepth == 0 else { return }
    if keysChangedInBatch {
      keysChangedInBatch = false
      keysDidChange?()
    }
    if effectsChangedInBatch {
      effectsChangedInBatch = false
      effectsDidChange?()
    }
  }

  private func notifyKeysChanged() {
    if batchDepth > 0 { keysChangedInBatch = true } else { keysDidChange?() }
  }

  private func notifyEffectsChanged() {
    if batchDepth > 0 { effectsChangedInBatch = true } else { effectsDidChange?() }
  }

  /// How many effects are running, including cancelled ones that have not stopped yet.
  package var count: Int { records.count + draining.count }

  /// Whether anything runs under `key`.
  package func isInFlight(_ key: EffectKey) -> Bool {
    tokensByKey[key] != nil
  }

  /// Whether every registered effect's operation has begun executing (tests wait for this
  /// before moving a test clock).
  package var allEffectsStarted: Bool {
    records.values.allSatisfy { $0.lifetime?.hasStarted != false }
  }

  /// Whether no registered effect's operation is still executing (some may have returned and
  /// await only their bookkeeping).
  package var allEffectsReturned: Bool {
    records.values.allSatisfy { !$0.isRunning }
  }

  /// What started each effect whose work has not returned yet (recorded only when the engine
  /// asks), oldest first.
  package var runningOrigins: [String] {
    records.keys.sorted().compactMap { token in
      records[token].flatMap { $0.isRunning ? $0.origin : nil }
    }
  }

  package func makeToken() -> Token {
    lastToken &+= 1
    return lastToken
  }

  package func register(
    _ token: Token, task: Task<Void, Never>, keys: [EffectKey], origin: String?,
    lifetime: EffectLifetime?
  ) {
    records[token] = Record(task: task, keys: keys, origin: origin, lifetime: lifetime)
    var keysChanged = false
    for key in keys {
      if tokensByKey[key] == nil { keysChanged = true }
      tokensByKey[key, default: []].insert(token)
    }
    if keysChanged { notifyKeysChanged() }
  }

  /// Removes an effect that stopped (finished, or ended after being cancelled).
  package func finish(_ token: Token) {
    if draining.removeValue(forKey: token) != nil {
      notifyEffectsChanged()
      return
    }
    guard let record = records.removeValue(forKey: token) else { return }
    if unindex(token, keys: record.keys) { notifyKeysChanged() }
    notifyEffectsChanged()
  }

  /// Cancels every effect running under `key`: at once it is no longer in flight under any
  /// key; it is tracked as draining until it has stopped. A no-op when nothing runs under `key`.
  package func cancel(_ key: EffectKey) {
    guard let tokens = tokensByKey[key] else { return }
    var keysChanged = false
    for token in tokens {
      guard let record = records.removeValue(forKey: token) else { continue }
      record.task.cancel()
      draining[token] = record.task
      keysChanged = unindex(token, keys: record.keys) || keysChanged
    }
    if keysChanged { notifyKeysChanged() }
    notifyEffectsChanged()
  }

  /// Cancels everything (when the store goes away, or a test skips in-flight effects).
  package func cancelAll() {
    let all = records
    records = [:]
    tokensByKey = [:]
    for (token, record) in all {
      record.task.cancel()
      draining[token] = record.task
    }
    if !all.isEmpty {
      notifyKeysChanged()
      notifyEffectsChanged()
    }
  }

  /// Returns whether a key lost its last effect.
  private func unindex(_ token: Token, keys: [EffectKey]) -> Bool {
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
}
