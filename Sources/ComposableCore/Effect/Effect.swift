/// Work a reducer asks the store to do after it changed state: send more actions, run async
/// operations, cancel in-flight work.
///
/// ```swift
/// case .refreshTapped:
///   return .run(modifying: State.self) { send, state in
///     let revision = try await client.refresh()
///     await state.modify { $0.revision = revision }
///   }
///   .cancellable(id: CancelID.refresh, cancelInFlight: true)
/// ```
///
/// Effects are values: building one does no work. The store starts them after the reduce that
/// returned them, with the dependencies and issue reporters that were in force during that reduce.
/// An effect cancelled before its task began (for example by an action reduced in the same
/// turn) never runs at all.
public struct Effect<Action: Sendable>: Sendable {
  @usableFromInline
  indirect enum Operation: Sendable {
    case none
    case send(Action)
    case run(RunOperation<Action>)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(EffectKey, cancelInFlight: Bool, Effect)
    /// Cancels what runs under any of these keys (one `.cancel(ids:)` is one operation).
    case cancel(EffectKeys)
    /// Work of a child that lives only while `presence` holds: when state changes so that it no
    /// longer does (however it changed), everything running under `key` is cancelled.
    case watched(EffectKey, presence: StatePredicate, Effect)
    /// An effect started at most once per window of time under `key`
    /// (``throttle(id:for:clock:latest:)``); the store decides when, from the windows it keeps.
    case throttled(EffectKey, Throttling, Effect)
  }

  @usableFromInline let operation: Operation

  @usableFromInline
  init(_ operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  @inlinable
  public static var none: Self { Self(.none) }

  /// An effect that sends `action` synchronously, right after the current action, in the same
  /// batch.
  public static func send(_ action: Action) -> Self { Self(.send(action)) }

  /// Runs all `effects` at once.
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// Runs all `effects` at once.
  public static func merge(_ effects: [Self]) -> Self {
    let kept = effects.filter { if case .none = $0.operation { false } else { true } }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Self(.merge(kept))
    }
  }

  /// Runs `effects` one after another: each starts when the previous one's own work has ended
  /// (as in TCA, the effects of actions it sent are not waited for; they belong to the send
  /// that started the concatenation).
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// Runs `effects` one after another.
  public static func concatenate(_ effects: [Self]) -> Self {
    let kept = effects.filter { if case .none = $0.operation { false } else { true } }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Self(.concatenate(kept))
    }
  }

  /// This effect and `other`, run at once.
  public func merge(with other: Self) -> Self { .merge(self, other) }

  /// This effect, then `other`.
  public func concatenate(with other: Self) -> Self { .concatenate(self, other) }

  /// Makes the effect cancellable by `id`, relative to the reducer's scope.
  ///
  /// - Parameters:
  ///   - id: the cancellation id, scoped to this reducer (see ``Scope`` for how scopes share it).
  ///   - cancelInFlight: cancel work already running under `id` before starting this.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = operation { return cancelInFlight ? .cancel(id: id) : self }
    return Self(.cancellable(EffectKey(id: id), cancelInFlight: cancelInFlight, self))
  }

  /// Cancels the work running under `id` in this reducer's scope. Cancelling an id with nothing
  /// in flight is a no-op.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(.cancel(EffectKeys(EffectKey(id: id))))
  }

  /// Cancels the work running under each of `ids`. O(n) in the ids, in one step of the store
  /// (observers hear of it once).
  public static func cancel(ids: [any Hashable & Sendable]) -> Self {
    guard !ids.isEmpty else { return .none }
    var keys = EffectKeys()
    keys.reserveCapacity(ids.count)
    for id in ids { keys.append(EffectKey(id: AnyHashableSendable(id))) }
    return Self(.cancel(keys))
  }
}

/// Cancellation key: an id plus the scope path (Scope / ifLet / forEach components, outermost
/// first) of the reducer that used it.
///
/// Its hash is computed once, when the key is made: the registry looks keys up on every start,
/// finish and cancellation by that hash (``hashCode``), and hashing type-erased components is
/// the costly part.
@usableFromInline
package struct EffectKey: Hashable, Sendable, CustomStringConvertible {
  package private(set) var path: [AnyHashableSendable]
  package let id: AnyHashableSendable
  /// The key's hash, computed when it was made.
  private(set) var hashCode: Int

  package init(id: some Hashable & Sendable, path: [AnyHashableSendable] = []) {
    self.id = AnyHashableSendable(id)
    self.path = path
    self.hashCode = Self.hash(id: self.id, path: path)
  }

  package func prefixed(by component: AnyHashableSendable) -> Self {
    var copy = self
    copy.path.insert(component, at: 0)
    copy.hashCode = Self.hash(id: id, path: copy.path)
    return copy
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.hashCode == rhs.hashCode && lhs.id == rhs.id && lhs.path == rhs.path
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(hashCode)
  }

  private static func hash(id: AnyHashableSendable, path: [AnyHashableSendable]) -> Int {
    var hasher = Hasher()
    hasher.combine(id)
    hasher.combine(path)
    return hasher.finalize()
  }

  @usableFromInline
  package var description: String {
    path.isEmpty ? "\(id)" : path.map(\.description).joined(separator: "/") + "/\(id)"
  }
}
