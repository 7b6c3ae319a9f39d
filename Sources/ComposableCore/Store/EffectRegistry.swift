/// The running effects of one store, keyed for cancellation.
///
/// Every store has its own registry, so stores (and parallel tests) never cancel each other's
/// work. All access is from the main actor; the type is `Sendable` only so a store's
/// deinitializer can cancel what is left.
///
/// Complexity: register, finish and cancel are O(k) in the number of keys involved; in-flight
/// queries are O(1).
package final class EffectRegistry: @unchecked Sendable {
  package typealias Token = UInt64

  private struct Record {
    let task: Task<Void, Never>
    var keys: [EffectKey]
    let origin: String?
  }

  private var records: [Token: Record] = [:]
  private var tokensByKey: [EffectKey: Set<Token>] = [:]
  private var lastToken: Token = 0

  /// Called when the set of in-flight keys changes (not on every start or finish).
  package var keysDidChange: (() -> Void)?
  /// Called after any effect finished or was cancelled.
  package var effectsDidChange: (() -> Void)?

  package init() {}

  /// How many effects are running.
  package var count: Int { records.count }

  /// Whether anything runs under `key`.
  package func isInFlight(_ key: EffectKey) -> Bool {
    tokensByKey[key] != nil
  }

  /// The origin descriptions of the running effects (recorded only when the engine asks).
  package var origins: [String] {
    records.keys.sorted().compactMap { records[$0]?.origin }
  }

  package func makeToken() -> Token {
    lastToken &+= 1
    return lastToken
  }

  package func register(_ token: Token, task: Task<Void, Never>, keys: [EffectKey], origin: String?) {
    records[token] = Record(task: task, keys: keys, origin: origin)
    var keysChanged = false
    for key in keys {
      if tokensByKey[key] == nil { keysChanged = true }
      tokensByKey[key, default: []].insert(token)
    }
    if keysChanged { keysDidChange?() }
  }

  /// Removes a finished effect.
  package func finish(_ token: Token) {
    guard let record = records.removeValue(forKey: token) else { return }
    if unindex(token, keys: record.keys) { keysDidChange?() }
    effectsDidChange?()
  }

  /// Cancels and removes every effect running under `key`. A no-op when none is.
  package func cancel(_ key: EffectKey) {
    guard let tokens = tokensByKey[key] else { return }
    var keysChanged = false
    for token in tokens {
      guard let record = records.removeValue(forKey: token) else { continue }
      record.task.cancel()
      keysChanged = unindex(token, keys: record.keys) || keysChanged
    }
    if keysChanged { keysDidChange?() }
    effectsDidChange?()
  }

  /// Cancels and removes everything.
  package func cancelAll() {
    let all = records
    records = [:]
    tokensByKey = [:]
    for record in all.values { record.task.cancel() }
    if !all.isEmpty {
      keysDidChange?()
      effectsDidChange?()
    }
  }

  /// Returns whether a key lost its last effect.
  private func unindex(_ token: Token, keys: [EffectKey]) -> Bool {
    var emptied = false
    for key in keys {
      tokensByKey[key]?.remove(token)
      if tokensByKey[key]?.isEmpty == true {
        tokensByKey[key] = nil
        emptied = true
      }
    }
    return emptied
  }
}
