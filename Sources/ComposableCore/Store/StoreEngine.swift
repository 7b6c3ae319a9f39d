/// Who sent an action, for test bookkeeping.
@usableFromInline
package enum ActionOrigin: Sendable {
  /// The store's user.
  case external
  /// An effect, or a `.send` effect.
  case effect
}

/// Where the tasks of the effects an action starts are collected.
@usableFromInline
enum EffectSink {
  /// Into the engine's `directTasks`, returned by the `send` being processed.
  case direct
  /// Into a box a queued (re-entrant) send already returned.
  case deferred(LockIsolated<[Task<Void, Never>]>)
  /// Nowhere: the action came from an effect.
  case discard
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

  @usableFromInline var queue: [Queued] = []
  @usableFromInline var isDraining = false
  @usableFromInline var directTasks: [Task<Void, Never>] = []

  /// Runs once at the end of every drained batch.
  @usableFromInline package var didFinishBatch: (() -> Void)?
  /// Runs after each item is processed, with the state right after it (tests only).
  @usableFromInline package var didProcess: ((Item, State) -> Void)?
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
  /// the task of every effect it starts.
  @inlinable
  package func send(_ action: Action, origin: ActionOrigin = .external) -> StoreTask {
    if isDraining {
      let box = LockIsolated<[Task<Void, Never>]>([])
      queue.append(.action(action, origin, .deferred(box)))
      return StoreTask(deferred: box)
    }
    isDraining = true
    process(action, origin: origin, sink: .direct)
    finishBatch()
    guard !directTasks.isEmpty else { return StoreTask([]) }
    defer { directTasks = [] }
    return StoreTask(directTasks)
  }

  private func receive(_ action: Action) {
    if isDraining {
      queue.append(.action(action, .effect, .discard))
      return
    }
    isDraining = true
    process(action, origin: .effect, sink: .discard)
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
    }
  }

  @inlinable
  func process(_ action: Action, origin: ActionOrigin, sink: EffectSink) {
    let effect = reducer(&state, action)
    didProcess?(.action(action, origin), state)
    if case .none = effect.operation { return }
    start(effect, sink: sink, keys: [], origin: action)
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
      collect(launch(run, keys: keys, origin: origin), into: sink)
    case .merge(let effects):
      for effect in effects { start(effect, sink: sink, keys: keys, origin: origin) }
    case .concatenate(let effects):
      collect(launchSequence(effects, keys: keys, origin: origin), into: sink)
    case .cancellable(let key, let cancelInFlight, let effect):
      if cancelInFlight { registry.cancel(key) }
      start(effect, sink: sink, keys: keys + [key], origin: origin)
    case .cancel(let key):
      registry.cancel(key)
    }
  }

  private func collect(_ task: Task<Void, Never>, into sink: EffectSink) {
    switch sink {
    case .direct: directTasks.append(task)
    case .deferred(let box): box.withValue { $0.append(task) }
    case .discard: break
    }
  }

  private func launch(_ run: RunOperation<Action>, keys: [EffectKey], origin: Action) -> Task<Void, Never> {
    let token = registry.makeToken()
    let lifetime = EffectLifetime()
    let context = EffectContext<Action>(
      send: { [weak self] in self?.receive($0) },
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

  private func launchSequence(_ effects: [Effect<Action>], keys: [EffectKey], origin: Action) -> Task<Void, Never> {
    let token = registry.makeToken()
    let task = Task { [weak self] in
      for effect in effects {
        guard !Task.isCancelled, let self else { break }
        let running = self.startCollecting(effect, keys: keys, origin: origin)
        await withTaskCancellationHandler {
          for task in running { await task.value }
        } onCancel: {
          for task in running { task.cancel() }
        }
      }
      self?.registry.finish(token)
    }
    registry.register(token, task: task, keys: keys, origin: describe(origin), lifetime: nil)
    return task
  }

  /// Starts `effect` outside any send and returns its tasks (for concatenation).
  private func startCollecting(_ effect: Effect<Action>, keys: [EffectKey], origin: Action) -> [Task<Void, Never>] {
    let box = LockIsolated<[Task<Void, Never>]>([])
    start(effect, sink: .deferred(box), keys: keys, origin: origin)
    if !isDraining && !queue.isEmpty {
      isDraining = true
      finishBatch()
    }
    return box.current
  }

  private func describe(_ origin: Action) -> String? {
    recordsEffectOrigins ? "\(origin)" : nil
  }
}
