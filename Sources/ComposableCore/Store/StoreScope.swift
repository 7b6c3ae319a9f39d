extension Store {
  /// A store of part of this store's state; its actions are embedded in one case of `Action`.
  /// It notifies observers only when its own state changed.
  ///
  /// It shares this store's effect-id space, as ``Scope`` does: `isEffectInFlight` on the
  /// scoped store sees the ids of the reducer the parent ran with `Scope(state:action:)`.
  ///
  /// Scoping again to the same key path with the same case path returns the same store while
  /// that store is in use, so a view body may scope on every render:
  ///
  /// ```swift
  /// EditorView(store: store.scope(state: \.editor, action: .editor))
  /// ```
  ///
  /// A case path has no identity of its own, so "the same case path" means the same embed
  /// function: the same code with the same captured context. Another case path with the same
  /// key path (`.editor` and `.preview`, or `.row(1)` and `.row(2)` capturing their value)
  /// always gets a store of its own. A case path whose embed captures a context built anew on
  /// each access (captured values; in unoptimized builds also `Self(embed: Action.editor)`,
  /// which the compiler wraps in a new thunk each time) gets a new store on each call: correct,
  /// but not cached. An embed written as a closure (`Self(embed: { .editor($0) }) { … }`)
  /// captures nothing, so it is cached in every build.
  @inlinable
  public func scope<ChildState: Equatable, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let key = ScopeKey(state: toChildState, action: toChildAction, kind: .equatable)
    return cachedScope(for: key) {
      makeChild(
        initial: currentState[keyPath: toChildState], component: .scope(toChildState),
        action: toChildAction, isDuplicate: { $0 == $1 }, mayDisappear: false
      ) { $0[keyPath: toChildState] }
    }
  }

  /// A store of part of this store's state, which is not `Equatable`: it notifies observers
  /// after every batch of actions the root store reduces. Cached as the `Equatable` variant is.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let key = ScopeKey(state: toChildState, action: toChildAction, kind: .notEquatable)
    return cachedScope(for: key) {
      makeChild(
        initial: currentState[keyPath: toChildState], component: .scope(toChildState),
        action: toChildAction, isDuplicate: nil, mayDisappear: false
      ) { $0[keyPath: toChildState] }
    }
  }

  /// A store of optional child state, or `nil` when it is absent now. When the state later
  /// disappears, the store keeps its last state and reports actions sent to it.
  ///
  /// Its effect ids are those of the child that `.ifLet` with the same key path runs (under the
  /// same `Scope`s on the way). Cached as the other scopes are, while the state is present: a
  /// call that finds it absent forgets the cached store.
  ///
  /// A `forEach` element is not such a child: a store scoped with `ifLet: \.rows[id: x]` sees
  /// its state, but not the element's effect ids in `isEffectInFlight` (a key path does not
  /// say which collection and element it reads, so the store cannot name the element's ids).
  /// Keep what a row view needs to know about its running work (say, "loading") in its state.
  @inlinable
  public func scope<ChildState: Equatable, ChildAction>(
    ifLet toChildState: KeyPath<State, ChildState?> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let key = ScopeKey(state: toChildState, action: toChildAction, kind: .optional)
    guard let initial = currentState[keyPath: toChildState] else {
      scopes.remove(key)
      return nil
    }
    return cachedScope(for: key) {
      makeChild(
        initial: initial, component: .child(toChildState), action: toChildAction,
        isDuplicate: { $0 == $1 }, mayDisappear: true
      ) { $0[keyPath: toChildState] }
    }
  }

  /// The scoped store cached under `key`, or the one `make` returns, cached from now on.
  @inlinable
  func cachedScope<ChildState, ChildAction>(
    for key: ScopeKey?, make: () -> Store<ChildState, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    if let cached = scopes.store(for: key) as? Store<ChildState, ChildAction> { return cached }
    let child = make()
    scopes.insert(child, for: key)
    return child
  }

  /// A new scoped store. It sends straight to the root (its embedding composed with this
  /// store's) and reads its state from the root's (its projection composed with this store's),
  /// so it holds no reference to this store: this store may go while it is in use.
  @inlinable
  func makeChild<ChildState, ChildAction>(
    initial: ChildState,
    component: ScopeComponent,
    action toChildAction: CasePath<Action, ChildAction>,
    isDuplicate: ((ChildState, ChildState) -> Bool)?,
    mayDisappear: Bool,
    toChildState: @escaping (State) -> ChildState?
  ) -> Store<ChildState, ChildAction> {
    let forward: (ChildAction) -> StoreTask
    let project: () -> ChildState?
    if let engine {
      forward = { engine.send(toChildAction.embed($0)) }
      project = { toChildState(engine.state) }
    } else {
      let (parentForward, parentProject) = (self.forward, self.project)
      forward = { parentForward(toChildAction.embed($0)) }
      project = { parentProject().flatMap(toChildState) }
    }
    let child = Store<ChildState, ChildAction>(
      engine: nil,
      tree: tree,
      snapshot: initial,
      path: component.path(after: path, scopePath: scopePath),
      scopePath: component.scopePath(after: scopePath),
      forward: forward,
      project: project,
      mayDisappear: mayDisappear || self.mayDisappear,
      inFlight: inFlight,
      isDuplicate: isDuplicate
    )
    // A store scoped from one whose state is gone is gone too, until the state is back.
    child.isGone = isGone
    child.refreshAfterBatch = ObservedScope { [weak child] in child?.refreshObserved() ?? false }
    return child
  }
}

/// What one level of scoping adds to a store's path (see ``Store/path``).
@usableFromInline
enum ScopeComponent {
  /// `scope(state:action:)`, as `Scope`: its key path names the part, not the ids.
  case scope(AnyKeyPath & Sendable)
  /// `scope(ifLet:action:)`, as `ifLet`: a child whose ids are namespaced by its path.
  case child(AnyKeyPath & Sendable)

  @usableFromInline
  func path(after path: [AnyHashableSendable], scopePath: [AnyKeyPath & Sendable])
    -> [AnyHashableSendable]
  {
    switch self {
    case .scope: return path
    case .child(let keyPath):
      return path + scopePath.map(AnyHashableSendable.init) + [AnyHashableSendable(keyPath)]
    }
  }

  /// Key paths stay unboxed until an `ifLet` child needs them as ids: boxing one in
  /// `AnyHashable` costs more than the rest of making a scoped store.
  @usableFromInline
  func scopePath(after scopePath: [AnyKeyPath & Sendable]) -> [AnyKeyPath & Sendable] {
    switch self {
    case .scope(let keyPath): return scopePath + [keyPath]
    case .child: return []
    }
  }
}

extension Store {
  /// How many scoped stores this store's cache has entries for, released ones not yet dropped
  /// included (for tests of the cache).
  package var scopeCacheEntryCount: Int { scopes.count }

  /// How many scoped stores of this store's tree the root refreshes after each batch (for
  /// tests that the list holds each observed store once and drops the others).
  package var observedScopedStoreCount: Int { tree.observedScopes.count }
}
