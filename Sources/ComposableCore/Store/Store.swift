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
/// - A scoped store (``scope(state:action:)``) notifies only when its own state changed
///   (when that state is `Equatable`; otherwise whenever its parent's did).
/// - Effects are cancelled when the root store is released.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  private enum Source {
    case root(StoreEngine<State, Action>)
    case scoped(State)
  }

  private let registrar = ObservationRegistrar()
  private var source: Source
  private let forward: (Action) -> StoreTask
  private let inFlight: InFlightEffects
  private let path: [AnyHashableSendable]
  private let isDuplicate: ((State, State) -> Bool)?
  private var isGone = false
  private var children: [(State) -> Bool] = []

  /// Creates a root store.
  ///
  /// - Parameter prepareDependencies: dependency changes for everything this store reduces
  ///   and runs.
  public convenience init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    let engine: StoreEngine<State, Action>
    if let prepareDependencies {
      engine = StoreEngine(
        initialState: initialState, reducer: reducer().transformDependencies(prepareDependencies))
    } else {
      engine = StoreEngine(initialState: initialState, reducer: reducer())
    }
    self.init(engine: engine)
  }

  private init(engine: StoreEngine<State, Action>) {
    self.source = .root(engine)
    self.forward = { engine.send($0) }
    self.path = []
    self.isDuplicate = nil
    self.inFlight = InFlightEffects(registry: engine.registry)
    engine.didFinishBatch = { [weak self] in self?.rootBatchDidFinish() }
  }

  private init(
    state: State,
    path: [AnyHashableSendable],
    forward: @escaping (Action) -> StoreTask,
    inFlight: InFlightEffects,
    isDuplicate: ((State, State) -> Bool)?
  ) {
    self.source = .scoped(state)
    self.path = path
    self.forward = forward
    self.inFlight = inFlight
    self.isDuplicate = isDuplicate
  }

  /// The current state. Reading it inside observation tracking registers the access.
  public var state: State {
    registrar.access(self, keyPath: \.state)
    return currentState
  }

  private var currentState: State {
    switch source {
    case .root(let engine): engine.state
    case .scoped(let state): state
    }
  }

  /// Reads a property of ``state``: `store.count` is `store.state.count`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Sends `action`; returns the task of every effect it started.
  ///
  /// Sending to a scoped store whose optional state is gone is reported as an issue and does
  /// nothing.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    guard !isGone else {
      reportIssue(
        """
        \(action) was sent to a scoped store whose state is gone; it was ignored. Scope again \
        when the state is present.
        """
      )
      return StoreTask([])
    }
    return forward(action)
  }

  /// Whether an effect made cancellable with `id` by this store's reducer is running.
  /// Observable: reading it inside observation tracking registers the access.
  ///
  /// ```swift
  /// let refreshing = workspaceStore.isEffectInFlight(WorkspaceOperation.refresh)
  /// ```
  public func isEffectInFlight(_ id: some Hashable & Sendable) -> Bool {
    inFlight.contains(EffectKey(id: id, path: path))
  }

  // MARK: Scoping

  /// A store of part of this store's state; its actions are embedded in one case of `Action`.
  /// It notifies observers only when its own state changed.
  ///
  /// The key path also namespaces effect ids, matching ``Scope``: `isEffectInFlight` on the
  /// scoped store sees the ids of the reducer the parent ran with `Scope(state:action:)`.
  public func scope<ChildState: Equatable, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    makeChild(
      initial: currentState[keyPath: toChildState], component: toChildState,
      action: toChildAction, isDuplicate: { $0 == $1 }
    ) { $0[keyPath: toChildState] }
  }

  /// A store of part of this store's state, which is not `Equatable`: it notifies observers
  /// whenever this store does.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    makeChild(
      initial: currentState[keyPath: toChildState], component: toChildState,
      action: toChildAction, isDuplicate: nil
    ) { $0[keyPath: toChildState] }
  }

  /// A store of optional child state, or `nil` when it is absent now. When the state later
  /// disappears, the store keeps its last state and reports actions sent to it.
  public func scope<ChildState: Equatable, ChildAction>(
    ifLet toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = currentState[keyPath: toChildState] else { return nil }
    return makeChild(
      initial: initial, component: toChildState, action: toChildAction, isDuplicate: { $0 == $1 }
    ) { $0[keyPath: toChildState] }
  }

  private func makeChild<ChildState, ChildAction>(
    initial: ChildState,
    component: some Hashable & Sendable,
    action toChildAction: CasePath<Action, ChildAction>,
    isDuplicate: ((ChildState, ChildState) -> Bool)?,
    toChildState: @escaping (State) -> ChildState?
  ) -> Store<ChildState, ChildAction> {
    let child = Store<ChildState, ChildAction>(
      state: initial,
      path: path + [AnyHashableSendable(component)],
      forward: { [send] in send(toChildAction.embed($0)) },
      inFlight: inFlight,
      isDuplicate: isDuplicate
    )
    children.append { [weak child] parentState in
      guard let child else { return false }
      child.parentDidChange(toChildState(parentState))
      return true
    }
    return child
  }

  // MARK: Change propagation

  private func rootBatchDidFinish() {
    registrar.withMutation(of: self, keyPath: \.state) {}
    updateChildren()
  }

  private func parentDidChange(_ newState: State?) {
    guard let newState else {
      isGone = true
      return
    }
    isGone = false
    if let isDuplicate, isDuplicate(currentState, newState) { return }
    registrar.withMutation(of: self, keyPath: \.state) {
      source = .scoped(newState)
    }
    updateChildren()
  }

  private func updateChildren() {
    guard !children.isEmpty else { return }
    let state = currentState
    let current = children
    children = []
    // Children scoped while notifying (by observers) were appended meanwhile; keep them too.
    children = current.filter { $0(state) } + children
  }
}

/// The observable set of in-flight effect keys of one root store, shared by its scoped stores.
@MainActor
private final class InFlightEffects: Observable {
  private let registrar = ObservationRegistrar()
  private let registry: EffectRegistry

  init(registry: EffectRegistry) {
    self.registry = registry
    registry.keysDidChange = { [weak self] in
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
