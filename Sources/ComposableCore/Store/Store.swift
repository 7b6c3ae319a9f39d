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
///   (when that state is `Equatable`; otherwise after every batch the root store reduces).
/// - Scoping again to the same part returns the same store while it is in use (see
///   `scope(state:action:)`).
/// - Effects are cancelled when the root store, and every store scoped from it, is released.
///
/// Cost: observation registers only through reads, so a store whose state nobody read since
/// its last notification has no observer to notify: it skips the notification. An unobserved
/// scoped store is not visited at all when the root reduces: it is stale from then on and
/// derives its state again from the root's on its next read. A store that is observed pays
/// one notification per batch, and a scoped one also one derivation and one `==` per batch.
/// Sending through a scoped store embeds the action once per level and sends it straight to
/// the root. A scoped store keeps a snapshot of its state, so observing a scoped large
/// collection makes each change of that collection copy it once.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  @usableFromInline let registrar = ObservationRegistrar()
  /// `\.state`, built once: forming a key path on a generic class is not free.
  @usableFromInline let stateKeyPath: KeyPath<Store, State> = \.state
  /// The runtime, for a root store; `nil` for a scoped store.
  @usableFromInline let engine: StoreEngine<State, Action>?
  /// What the root store and the stores scoped from it share (the root's batch count, the
  /// observed scoped stores).
  @usableFromInline let tree: StoreTree
  /// The last state a scoped store derived. A root store reads its engine instead; its
  /// snapshot is the initial state, never read (kept non-optional so reading state needs no
  /// unwrap).
  @usableFromInline var snapshot: State
  /// Sends an action of this store to the root engine, embedded through every level.
  @usableFromInline let forward: (Action) -> StoreTask
  /// This store's state, read from the root's (`nil` when optional state on the way is gone).
  @usableFromInline let project: () -> State?
  @usableFromInline let inFlight: InFlightEffects
  /// The scope path of this store's reducer, as its effect keys carry it: the components of
  /// `ifLet` children (and the `Scope`s above them) on the way from the root.
  @usableFromInline let path: [AnyHashableSendable]
  /// The `Scope` key paths since the last `ifLet` child on the way: they name this store's
  /// part of the tree but not its own ids (shared with the parent, as `Scope` shares them);
  /// a child scoped with `ifLet` below them puts them in its path.
  @usableFromInline let scopePath: [AnyKeyPath & Sendable]
  @usableFromInline let isDuplicate: ((State, State) -> Bool)?
  /// Whether this store, or one it was scoped from, was scoped to optional state
  /// (``scope(ifLet:action:)``), which can go.
  @usableFromInline let mayDisappear: Bool
  // Flags and links below are touched only on the main actor and never by overlapping
  // accesses, so they skip the runtime's dynamic exclusivity checks.
  @exclusivity(unchecked) @usableFromInline var isGone = false
  /// The root's batch count when a scoped store's snapshot was derived: it is stale when the
  /// root has finished a batch since.
  @exclusivity(unchecked) @usableFromInline var derivedAt: UInt
  /// Whether state was read (so an observer may be registered) since the last notification.
  @exclusivity(unchecked) @usableFromInline var isObserved = false
  /// Whether an observed scoped store derived a state that differs from the one its
  /// observers read: it notifies at the end of the batch.
  @exclusivity(unchecked) @usableFromInline var hasUnseenChange = false
  /// For a scoped store: derives, notifies if changed, and says whether it is still observed.
  @exclusivity(unchecked) @usableFromInline var refreshAfterBatch: ObservedScope?
  /// The scoped stores handed out by ``scope(state:action:)`` and its variants.
  @exclusivity(unchecked) @usableFromInline var scopes = ScopeCache()

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
    let tree = StoreTree()
    self.init(
      engine: engine, tree: tree, snapshot: initialState, path: [], scopePath: [],
      forward: { engine.send($0) }, project: { engine.state }, mayDisappear: false,
      inFlight: InFlightEffects(registry: engine.registry), isDuplicate: nil
    )
    // The engine holds the tree (scoped stores read its batch count) and this store weakly.
    engine.didFinishBatch = { [weak self] in
      tree.batches &+= 1
      if tree.rootIsObserved {
        tree.rootIsObserved = false
        self?.notifyIfObserved()
      }
      if !tree.observedScopes.isEmpty { tree.refreshObservedScopes() }
    }
  }

  @usableFromInline
  init(
    engine: StoreEngine<State, Action>?,
    tree: StoreTree,
    snapshot: State,
    path: [AnyHashableSendable],
    scopePath: [AnyKeyPath & Sendable],
    forward: @escaping (Action) -> StoreTask,
    project: @escaping () -> State?,
    mayDisappear: Bool,
    inFlight: InFlightEffects,
    isDuplicate: ((State, State) -> Bool)?
  ) {
    self.engine = engine
    self.tree = tree
    self.snapshot = snapshot
    self.derivedAt = tree.batches
    self.path = path
    self.scopePath = scopePath
    self.forward = forward
    self.project = project
    self.mayDisappear = mayDisappear
    self.inFlight = inFlight
    self.isDuplicate = isDuplicate
  }

  /// The current state. Reading it inside observation tracking registers the access.
  @inlinable
  public var state: State {
    registrar.access(self, keyPath: stateKeyPath)
    // Derived before the store counts as observed: the observer registering now reads this
    // value, so it is not an unseen change.
    let state = currentState
    if !isObserved { becomeObserved() }
    return state
  }

  @inlinable
  var currentState: State {
    if let engine { return engine.state }
    if derivedAt != tree.batches { rederive() }
    return snapshot
  }

  /// Brings a stale scoped store's snapshot up to date. Notifies nobody; an observed store
  /// remembers that its observers read another value, and notifies at the end of the batch.
  @inlinable
  func rederive() {
    derivedAt = tree.batches
    guard let derived = project() else {
      isGone = true
      return
    }
    isGone = false
    if isObserved, !hasUnseenChange {
      hasUnseenChange = isDuplicate?(snapshot, derived) != true
    }
    snapshot = derived
  }

  /// Marks the store observed; a scoped store joins the ones the root refreshes after each
  /// batch, until it is notified.
  @usableFromInline
  func becomeObserved() {
    isObserved = true
    if engine != nil { tree.rootIsObserved = true }
    if let refreshAfterBatch { tree.observedScopes.append(refreshAfterBatch) }
  }

  /// Reads a property of ``state``: `store.count` is `store.state.count`.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Sends `action`; returns the task of every effect it started.
  ///
  /// A scoped store embeds the action in its parents' cases and sends it to the root store, in
  /// the order of sends. Sending to a scoped store whose optional state is gone is reported as
  /// an issue and does nothing.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    // Not `if let engine`: that copy retained the engine on every send, and an engine (held
    // weakly by its effects) has a side table, so each retain and release was the runtime's
    // slow path.
    if let task = engine?.send(action) { return task }
    if mayDisappear, derivedAt != tree.batches { rederive() }
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
  /// An effect leaves flight on the main actor: when its operation returned there (after
  /// sending its last action) at once, otherwise in a main-actor job after it returned. So two
  /// reads in one main-actor turn agree, unless a `StoreTask` was cancelled between them
  /// (from another task). Observers hear of an effect's end as it happens, and of a
  /// `StoreTask`'s cancellation in a main-actor task.
  ///
  /// ```swift
  /// let refreshing = store.isEffectInFlight(Search.CancelID.query)
  /// ```
  public func isEffectInFlight(_ id: some Hashable & Sendable) -> Bool {
    inFlight.contains(EffectKey(id: id, path: path))
  }

  // MARK: Change propagation

  /// Notifies observers, if state was read since the last notification. The flag is cleared
  /// first: an observer that re-registers while being notified sets it again.
  @inlinable
  func notifyIfObserved() {
    guard isObserved else { return }
    isObserved = false
    registrar.withMutation(of: self, keyPath: stateKeyPath) {}
  }

  /// The end of a root batch, for an observed scoped store: derives its state, and notifies
  /// when it changed. Returns whether it is still observed (`false` once notified: reading it
  /// again observes it again).
  @inlinable
  func refreshObserved() -> Bool {
    if derivedAt != tree.batches { rederive() }
    guard hasUnseenChange else { return isObserved }
    hasUnseenChange = false
    notifyIfObserved()
    return false
  }
}

/// The observable set of in-flight effect keys of one root store, shared by its scoped stores.
@MainActor
@usableFromInline
final class InFlightEffects: Observable {
  private let registrar = ObservationRegistrar()
  private let registry: EffectRegistry

  /// Observers are notified once and must read again to hear of the next change: the registry
  /// keeps that flag, so until someone reads, a change (every effect that starts or ends under
  /// a new key, from whichever thread) costs no notification.
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
    return registry.isInFlight(key, observing: true)
  }
}
