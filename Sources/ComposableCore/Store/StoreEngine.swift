/// Who sent an action, for test bookkeeping.
@usableFromInline
package enum ActionOrigin: Sendable {
  /// The store's user.
  case external
  /// An effect, or a `.send` effect.
  case effect
}

/// Where the tasks of the effects an action starts are collected: the tasks of one external
/// send, which its `StoreTask` awaits.
@usableFromInline
enum EffectSink {
  /// Into the box of the `send` being processed, made when its first effect starts.
  case direct
  /// Into a box an earlier send already returned (a re-entrant send, or an action an effect
  /// of that send sent back).
  case box(StoreTask.Box)
}

/// The runtime shared by ``Store`` and `TestStore`: it owns the root state, reduces actions and
/// effect-applied modifications in order, and starts and tracks effects.
///
/// Ordering rules:
/// - An action sent while another is being reduced (from an observer, or by a `.send` effect)
///   is queued and reduced after it, in order, in the same batch.
/// - A batch ends when the queue is empty; `didFinishBatch` then runs once. Actions sent from
///   it start the next batch.
/// - State is mutated in place (no copy of the root state per action).
///
/// The send path is `@inlinable` so that it is specialized for the feature's state and action
/// types in the module that uses the store; unspecialized generic code costs tens of times more.
@MainActor
@usableFromInline
package final class StoreEngine<State, Action: Sendable> {
  /// A processed unit of work, reported to tests.
  @usableFromInline
  package enum Item {
    case action(Action, ActionOrigin)
    case modification(IssueLocation)
  }

  @usableFromInline
  enum Queued {
    case action(Action, ActionOrigin, EffectSink)
    case modification(@Sendable (inout State) -> Void, IssueLocation)
  }

  @usableFromInline package var state: State
  @usableFromInline let reducer: (inout State, Action) -> Effect<Action>
  @usableFromInline package nonisolated let registry = EffectRegistry()

  // Bookkeeping below is touched only on the main actor, never by overlapping accesses, so
  // it skips the runtime's dynamic exclusivity checks (a large share of a send's cost).
  @exclusivity(unchecked) @usableFromInline var queue: [Queued] = []
  @exclusivity(unchecked) @usableFromInline var isDraining = false
  /// The task box of the external send being processed, once one of its effects started.
  @exclusivity(unchecked) @usableFromInline var directBox: StoreTask.Box?
  /// Children (ifLet, forEach) with running effects, and how to tell they are still there.
  /// Checked after every processed action and modification, whatever removed the child.
  @exclusivity(unchecked) @usableFromInline var watchedChildren: [EffectKey: @Sendable (State) -> Bool] = [:]

  /// Runs once at the end of every drained batch.
  @exclusivity(unchecked) @usableFromInline package var didFinishBatch: (() -> Void)?
  /// Runs after each item is processed, with the state right after it (tests only).
  @exclusivity(unchecked) @usableFromInline package var didProcess: ((Item, State) -> Void)?
  /// Record what started each effect, for "still in flight" diagnostics (tests only).
  package var recordsEffectOrigins = false

  @inlinable
  package init<R: Reducer>(initialState: State, reducer: R)
  where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer.reduce(into:action:)
  }

  deinit {
    registry.cancelAll()
  }

  // MARK: Input

  /// Reduces `action` (now, or after the current action when called re-entrantly) and returns
  /// the task of every effect it starts, including effects of actions those effects send back.
  @inlinable
  package func send(_ action: Action, origin: ActionOrigin = .external) -> StoreTask {
    if isDraining {
      let box = StoreTask.Box()
      queue.append(.action(action, origin, .box(box)))
      return StoreTask(box)
    }
    isDraining = true
    process(action, origin: origin, sink: .direct)
    finishBatch()
    guard let box = directBox else { return StoreTask() }
    directBox = nil
    return StoreTask(box)
  }

  /// An action sent back by an effect: its own effects join the task of the send that started
  /// that effect.
  private func receive(_ action: Action, into box: StoreTask.Box) {
    if isDraining {
      queue.append(.action(action, .effect, .box(box)))
      return
    }
    isDraining = true
    process(action, origin: .effect, sink: .box(box))
    finishBatch()
  }

  private func receive(_ modification: StateModification) {
    guard let body = modification.typed(as: State.self) else {
      StateModification.reportModificationTypeMismatch(modification, expected: State.self)
      return
    }
    queue.append(.modification(body, modification.location))
    if !isDraining {
      isDraining = true
      finishBatch()
    }
  }

  /// Whether anything runs under `id` at `path`.
  package func isInFlight(_ id: some Hashable & Sendable, path: [AnyHashableSendable]) -> Bool {
    registry.isInFlight(EffectKey(id: id, path: path))
  }

  /// Cancels every running effect.
  package func cancelAllEffects() {
    registry.cancelAll()
  }

  // MARK: Processing

  /// Reduces whatever was queued meanwhile, notifies once, and repeats while notifications
  /// queue more. Called with `isDraining` set; clears it.
  @inlinable
  func finishBatch() {
    repeat {
      var index = 0
      while index < queue.count {
        let item = queue[index]
        index += 1
        process(item)
      }
      if !queue.isEmpty { queue.removeAll(keepingCapacity: true) }
      didFinishBatch?()
    } while !queue.isEmpty
    isDraining = false
  }

  @inlinable
  func process(_ item: Queued) {
    switch item {
    case .action(let action, let origin, let sink):
      process(action, origin: origin, sink: sink)
    case .modification(let body, let location):
      body(&state)
      didProcess?(.modification(location), state)
      if !watchedChildren.isEmpty { cancelEffectsOfRemovedChildren() }
    }
  }

  @inlinable
  func process(_ action: Action, origin: ActionOrigin, sink: EffectSink) {
    let effect = reducer(&state, action)
    didProcess?(.action(action, origin), state)
    if case .none = effect.operation {
      if !watchedChildren.isEmpty { cancelEffectsOfRemovedChildren() }
      return
    }
    start(effect, sink: sink, keys: [], origin: action)
    if !watchedChildren.isEmpty { cancelEffectsOfRemovedChildren() }
  }

  /// Cancels the effects of every watched child that is gone, and forgets children whose
  /// effects all ended. O(watched children).
  @usableFromInline
  func cancelEffectsOfRemovedChildren() {
    for (key, isPresent) in watchedChildren {
      if !registry.isInFlight(key) {
        watchedChildren[key] = nil
      } else if !isPresent(state) {
        registry.cancel(key)
        watchedChildren[key] = nil
      }
    }
  }

  // MARK: Effects

  @usableFromInline
  func start(_ effect: Effect<Action>, sink: EffectSink, keys: [EffectKey], origin: Action) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      queue.append(.action(action, .effect, sink))
    case .run(let run):
      let box = resolve(sink)
      box.append(launch(run, keys: keys, origin: origin, box: box))
    case .merge(let effects):
      registry.batch {
        for effect in effects { start(effect, sink: sink, keys: keys, origin: origin) }
      }
    case .concatenate(let effects):
      let box = resolve(sink)
      box.append(launchSequence(effects, keys: keys, origin: origin, box: box))
    case .cancellable(let key, let cancelInFlight, let effect):
      if cancelInFlight { registry.cancel(key) }
      start(effect, sink: sink, keys: keys + [key], origin: origin)
    case .cancel(let key):
      registry.cancel(key)
    case .watched(let key, let presence, let effect):
      if let isPresent = presence.typed(as: State.self) { watchedChildren[key] = isPresent }
      start(effect, sink: sink, keys: keys, origin: origin)
    }
  }

  private func resolve(_ sink: EffectSink) -> StoreTask.Box {
    switch sink {
    case .box(let box):
      return box
    case .direct:
      if let directBox { return directBox }
      let box = StoreTask.Box()
      directBox = box
      return box
    }
  }

  private func launch(
    _ run: RunOperation<Action>, keys: [EffectKey], origin: Action, box: StoreTask.Box
  ) -> Task<Void, Never> {
    let token = registry.makeToken()
    let lifetime = EffectLifetime()
    let context = EffectContext<Action>(
      send: { [weak self] in self?.receive($0, into: box) },
      modify: { [weak self] in self?.receive($0) },
      lifetime: lifetime
    )
    let task = Task(priority: run.priority) { [weak self] in
      await run(context)
      self?.registry.finish(token)
    }
    registry.register(token, task: task, keys: keys, origin: describe(origin), lifetime: lifetime)
    return task
  }

  private func launchSequence(
    _ effects: [Effect<Action>], keys: [EffectKey], origin: Action, box: StoreTask.Box
  ) -> Task<Void, Never> {
    let token = registry.makeToken()
    let registry = self.registry
    let task = Task { [weak self] in
      for effect in effects {
        guard !Task.isCancelled else { break }
        // Each step's work (and what it sends back) is collected apart, so the next step waits
        // for exactly it; the outer send's task waits for this whole sequence. The engine is
        // held only while starting a step, never across the wait, so releasing the store still
        // cancels everything.
        let step = StoreTask.Box()
        guard let engine = self else { break }
        engine.startCollecting(effect, keys: keys, origin: origin, into: step)
        await StoreTask(step).finish()
      }
      registry.finish(token)
    }
    registry.register(token, task: task, keys: keys, origin: describe(origin), lifetime: nil)
    return task
  }

  /// Starts `effect` outside any send, collecting its tasks into `box` (for concatenation).
  private func startCollecting(
    _ effect: Effect<Action>, keys: [EffectKey], origin: Action, into box: StoreTask.Box
  ) {
    start(effect, sink: .box(box), keys: keys, origin: origin)
    if !isDraining && !queue.isEmpty {
      isDraining = true
      finishBatch()
    }
  }

  private func describe(_ origin: Action) -> String? {
    recordsEffectOrigins ? "\(origin)" : nil
  }
}
