import Observation

/// The runtime of a feature: holds its state, reduces actions, runs effects, and tells
/// observers (SwiftUI, `withObservationTracking`) when state changed.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// await store.send(.refresh).finish()
/// print(store.count)
/// ```
///
/// Rules:
/// - `send` reduces synchronously. An action sent while another is being reduced (for example
///   from an observer) is queued and reduced right after it, in order.
/// - Observers are notified once per drained batch of actions, not once per action.
/// - A scoped store (`scope(state:action:)`) notifies only when its own state changed
///   (when that state is `Equatable`; otherwise whenever its parent's did).
/// - Effects are cancelled when the root store is released.
///
/// Cost: observation registers only through reads, so a store whose state nobody read since
/// its last notification has no observer to notify: it skips the notification, and a scoped
/// store then only marks itself stale and derives its state again on its next read. A store
/// that is observed pays one notification per batch, and a scoped one also one derivation and
/// one `==` per batch. Sending through a scoped store adds one closure call per level. A
/// scoped store keeps a snapshot of its state, so observing a scoped large collection makes
/// each change of that collection copy it once.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  @usableFromInline let registrar = ObservationRegistrar()
  /// `\.state`, built once: forming a key path on a generic class is not free.
  @usableFromInline let stateKeyPath: KeyPath<Store, State> = \.state
  /// The runtime, for a root store; `nil` for a scoped store.
  @usableFromInline let engine: StoreEngine<State, Action>?
  /// The last state a scoped store saw. A root store reads its engine instead; its snapshot is
  /// the initial state, never read (kept non-optional so reading state needs no unwrap).
  @usableFromInline var snapshot: State
  @usableFromInline let forward: (Action) -> StoreTask
  @usableFromInline let inFlight: InFlightEffects
  @usableFromInline let path: [AnyHashableSendable]
  @usableFromInline let isDuplicate: ((State, State) -> Bool)?
  /// Derives a scoped store's state from its parent's (`nil` when optional state is gone).
  @usableFromInline let derive: (() -> State?)?
  /// Whether this store was scoped to optional state (``scope(ifLet:action:)``), which can go.
  @usableFromInline let mayDisappear: Bool
  // Flags and links below are touched only on the main actor and never by overlapping
  // accesses, so they skip the runtime's dynamic exclusivity checks.
  @exclusivity(unchecked) @usableFromInline var isGone = false
  /// A scoped store whose parent changed while nobody observed it: derive before reading.
  @exclusivity(unchecked) @usableFromInline var isStale = false
  /// Whether state was read (so an observer may be registered) since the last notification.
  @exclusivity(unchecked) @usableFromInline var isObserved = false
  @exclusivity(unchecked) @usableFromInline var children: [() -> Bool] = []

  /// Creates a root store.
  ///
  /// The store keeps the dependencies in force where it is created (as TCA's store does), so a
  /// store made inside `withDependencies` runs every reduce and effect with those values;
  /// `.dependency` modifiers inside the reducer still override them for their part.
  ///
  /// ```swift
  /// let store = withDependencies {
  ///   $0.clock = ContinuousClock()
  /// } operation: {
  ///   Store(initialState: Feature.State()) { Feature() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: the state the feature starts from.
  ///   - reducer: the feature.
  ///   - prepareDependencies: further changes to those dependencies, for everything this store
  ///     reduces and runs.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    var dependencies = DependencyValues.current
    prepareDependencies?(&dependencies)
    let engine = StoreEngine(
      initialState: initialState, reducer: reducer(), dependencies: dependencies)
    self.init(
      engine: engine, snapshot: initialState, path: [], forward: { engine.send($0) },
      derive: nil, mayDisappear: false, inFlight: InFlightEffects(registry: engine.registry),
      isDuplicate: nil
    )
    engine.didFinishBatch = { [weak self] in self?.batchDidFinish() }
  }

  @usableFromInline
  init(
    engine: StoreEngine<State, Action>?,
    snapshot: State,
    path: [AnyHashableSendable],
    forward: @escaping (Action) -> StoreTask,
    derive: (() -> State?)?,
    mayDisappear: Bool,
    inFlight: InFlightEffects,
    isDuplicate: ((State, State) -> Bool)?
  ) {
    self.engine = engine
    self.snapshot = snapshot
    self.path = path
    self.forward = forward
    self.derive = derive
    self.mayDisappear = mayDisappear
    self.inFlight = inFlight
    self.isDuplicate = isDuplicate
  }

  /// The current state. Reading it inside observation tracking registers the access.
  @inlinable
  public var state: State {
    registrar.access(self, keyPath: stateKeyPath)
    isObserved = true
    return currentState
  }

  @inlinable
  var currentState: State {
    if let engine { return engine.state }
    if isStale { rederive() }
    return snapshot
  }

  /// Brings a stale scoped store's snapshot up to date, without notifying (nobody observed
  /// the stale value).
  @inlinable
  func rederive() {
    isStale = false
    guard let derived = derive?() else {
      isGone = true
      return
    }
    isGone = false
    snapshot = derived
  }

  /// Reads a property of ``state``: `store.count` is `store.state.count`.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Sends `action`; returns the task of every effect it started.
  ///
  /// Sending to a scoped store whose optional state is gone is reported as an issue and does
  /// nothing.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if let engine { return engine.send(action) }
    if mayDisappear, isStale { rederive() }
    guard !isGone else {
      reportIssue(
        """
        \(action) was sent to a scoped store whose state is gone; it was ignored. Scope again \
        when the state is present.
        """
      )
      return StoreTask()
    }
    return forward(action)
  }

  /// Whether an effect made cancellable with `id` by this store's reducer is running.
  /// Observable: reading it inside observation tracking registers the access.
  ///
  /// ```swift
  /// let refreshing = store.isEffectInFlight(Search.CancelID.query)
  /// ```
  public func isEffectInFlight(_ id: some Hashable & Sendable) -> Bool {
    inFlight.contains(EffectKey(id: id, path: path))
  }

  // MARK: Scoping

  /// A store of part of this store's state; its actions are embedded in one case of `Action`.
  /// It notifies observers only when its own state changed.
  ///
  /// It shares this store's effect-id space, as ``Scope`` does: `isEffectInFlight` on the
  /// scoped store sees the ids of the reducer the parent ran with `Scope(state:action:)`.
  @inlinable
  public func scope<ChildState: Equatable, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    makeChild(
      initial: currentState[keyPath: toChildState], component: nil,
      action: toChildAction, isDuplicate: { $0 == $1 }
    ) { $0[keyPath: toChildState] }
  }

  /// A store of part of this store's state, which is not `Equatable`: it notifies observers
  /// whenever this store does.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    makeChild(
      initial: currentState[keyPath: toChildState], component: nil,
      action: toChildAction, isDuplicate: nil
    ) { $0[keyPath: toChildState] }
  }

  /// A store of optional child state, or `nil` when it is absent now. When the state later
  /// disappears, the store keeps its last state and reports actions sent to it.
  ///
  /// Its effect ids are those of the child that `.ifLet` with the same key path runs.
  @inlinable
  public func scope<ChildState: Equatable, ChildAction>(
    ifLet toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = currentState[keyPath: toChildState] else { return nil }
    return makeChild(
      initial: initial, component: AnyHashableSendable(toChildState), action: toChildAction,
      isDuplicate: { $0 == $1 }, mayDisappear: true
    ) { $0[keyPath: toChildState] }
  }

  @inlinable
  func makeChild<ChildState, ChildAction>(
    initial: ChildState,
    component: AnyHashableSendable?,
    action toChildAction: CasePath<Action, ChildAction>,
    isDuplicate: ((ChildState, ChildState) -> Bool)?,
    mayDisappear: Bool = false,
    toChildState: @escaping (State) -> ChildState?
  ) -> Store<ChildState, ChildAction> {
    let child = Store<ChildState, ChildAction>(
      engine: nil,
      snapshot: initial,
      path: component.map { path + [$0] } ?? path,
      forward: { [send] in send(toChildAction.embed($0)) },
      derive: { [self] in toChildState(self.currentState) },
      mayDisappear: mayDisappear,
      inFlight: inFlight,
      isDuplicate: isDuplicate
    )
    children.append { [weak child] in
      guard let child else { return false }
      child.parentDidChange()
      return true
    }
    return child
  }

  // MARK: Change propagation

  @inlinable
  func batchDidFinish() {
    notifyIfObserved()
    if !children.isEmpty { updateChildren() }
  }

  /// Notifies observers, if state was read since the last notification. The flag is cleared
  /// first: an observer that re-registers while being notified sets it again.
  @inlinable
  func notifyIfObserved() {
    guard isObserved else { return }
    isObserved = false
    registrar.withMutation(of: self, keyPath: stateKeyPath) {}
  }

  @inlinable
  func parentDidChange() {
    if isObserved {
      let previous = snapshot
      rederive()
      if !isGone, isDuplicate?(previous, snapshot) != true { notifyIfObserved() }
    } else {
      isStale = true
    }
    if !children.isEmpty { updateChildren() }
  }

  /// Updates live children in place and forgets released ones. Children scoped while
  /// notifying (by observers) are appended meanwhile and kept.
  @inlinable
  func updateChildren() {
    var released: [Int] = []
    var index = 0
    while index < children.count {
      if !children[index]() { released.append(index) }
      index += 1
    }
    for index in released.reversed() { children.remove(at: index) }
  }
}

/// The observable set of in-flight effect keys of one root store, shared by its scoped stores.
@MainActor
@usableFromInline
final class InFlightEffects: Observable {
  private let registrar = ObservationRegistrar()
  private let registry: EffectRegistry

  @usableFromInline
  init(registry: EffectRegistry) {
    self.registry = registry
    registry.onKeysChange { [weak self] in
      guard let self else { return }
      self.registrar.withMutation(of: self, keyPath: \.keys) {}
    }
  }

  private var keys: Void { () }

  func contains(_ key: EffectKey) -> Bool {
    registrar.access(self, keyPath: \.keys)
    return registry.isInFlight(key)
  }
}
