/// The runtime shared by ``Store`` and `TestStore`: it owns the root state, reduces queued
/// actions and effect-applied modifications in order, and starts and tracks effects.
///
/// Ordering rules:
/// - An action sent while another is being reduced (from an observer, or by a `.send` effect)
///   is queued and reduced after it, in order, in the same batch.
/// - A batch ends when the queue is empty; `didFinishBatch` then runs once. Actions sent from
///   it start the next batch.
/// - State is mutated in place (no copy of the root state per action).
@MainActor
package final class StoreEngine<State, Action: Sendable> {
  /// The source of a processed item, for test bookkeeping.
  package enum Origin: Sendable {
    /// Sent by the store's user.
    case external
    /// Sent by an effect, or a `.send` effect.
    case effect
  }

  /// A processed unit of work.
  package enum Item {
    case action(Action, Origin)
    case modification(IssueLocation)
  }

  private enum Sink {
    case direct
    case deferred(LockIsolated<[Task<Void, Never>]>)
    case discard
  }

  private enum Queued {
    case action(Action, Origin, Sink)
    case modification(@Sendable (inout State) -> Void, IssueLocation)
  }

  package private(set) var state: State
  private let reducer: (inout State, Action) -> Effect<Action>
  package nonisolated let registry = EffectRegistry()

  private var queue: [Queued] = []
  private var isDraining = false
  private var directTasks: [Task<Void, Never>] = []

  /// Runs once at the end of every drained batch.
  package var didFinishBatch: (() -> Void)?
  /// Runs after each item is processed, with the state right after it (tests only).
  package var didProcess: ((Item, State) -> Void)?
  /// Record what started each effect, for "still in flight" diagnostics (tests only).
  package var recordsEffectOrigins = false

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
  package func send(_ action: Action, origin: Origin = .external) -> StoreTask {
    if isDraining {
      let box = LockIsolated<[Task<Void, Never>]>([])
      queue.append(.action(action, origin, .deferred(box)))
      return StoreTask(deferred: box)
    }
    queue.append(.action(action, origin, .direct))
    drain()
    defer { directTasks = [] }
    return StoreTask(directTasks)
  }

  private func receive(_ action: Action) {
    queue.append(.action(action, .effect, .discard))
    if !isDraining { drain() }
  }

  private func receive(_ modification: StateModification) {
    guard let body = modification.typed(as: State.self) else {
      StateModification.reportModificationTypeMismatch(modification, expected: State.self)
      return
    }
    queue.append(.modification(body, modification.location))
    if !isDraining { drain() }
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

  private func drain() {
    isDraining = true
    defer { isDraining = false }
    repeat {
      var index = 0
      while index < queue.count {
        let item = queue[index]
        index += 1
        process(item)
      }
      queue.removeAll(keepingCapacity: true)
      didFinishBatch?()
    } while !queue.isEmpty
  }

  private func process(_ item: Queued) {
    switch item {
    case .action(let action, let origin, let sink):
      let effect = reducer(&state, action)
      didProcess?(.action(action, origin), state)
      start(effect, sink: sink, keys: [], origin: action)
    case .modification(let body, let location):
      body(&state)
      didProcess?(.modification(location), state)
    }
  }

  // MARK: Effects

  private func start(_ effect: Effect<Action>, sink: Sink, keys: [EffectKey], origin: Action) {
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

  private func collect(_ task: Task<Void, Never>, into sink: Sink) {
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
    if !isDraining && !queue.isEmpty { drain() }
    return box.current
  }

  private func describe(_ origin: Action) -> String? {
    recordsEffectOrigins ? "\(origin)" : nil
  }
}
