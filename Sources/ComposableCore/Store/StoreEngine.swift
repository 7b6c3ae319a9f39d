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
  /// One step of a concatenation: its own tasks go into `step`, which the next step waits
  /// for; the effects of actions it sends join `replies` (the whole send's box), as in TCA.
  case step(StoreTask.Box, replies: StoreTask.Box)
}

/// Starts the task of one effect. The default starts a plain `Task`; a test store starts them
/// on an executor it watches, so it knows when every effect is suspended.
@usableFromInline
package typealias EffectTaskStarter =
  @Sendable (TaskPriority?, _ operation: @escaping @Sendable @isolated(any) () async -> Void)
  -> Task<Void, Never>

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
  /// The dependencies in force when the store was created: every reduce runs with them (and
  /// so every effect captures them), as in TCA.
  @usableFromInline let dependencies: DependencyValues
  /// How effect tasks are started when not as plain tasks (a test store sets it before the
  /// first send).
  @usableFromInline package var startTask: EffectTaskStarter?

  // Bookkeeping below is touched only on the main actor, never by overlapping accesses, so
  // it skips the runtime's dynamic exclusivity checks (a large share of a send's cost).
  @exclusivity(unchecked) @usableFromInline var queue: [Queued] = []
  @exclusivity(unchecked) @usableFromInline var isDraining = false
  /// The task box of the external send being processed, once one of its effects started.
  @exclusivity(unchecked) @usableFromInline var directBox: StoreTask.Box?
  /// Children (ifLet, forEach) with running effects, and how to tell they are still there.
  /// Checked after every processed action and modification, whatever removed the child.
  @exclusivity(unchecked) @usableFromInline var watchedChildren:
    [EffectKey: @Sendable (State) -> Bool] = [:]
  /// The open windows of throttled effects (`Effect.throttle`), per key.
  var throttleWindows = ThrottleWindows()
  /// ``receive(_:into:)``, made where the store is created (the initializer is inlinable), so
  /// it is specialized for the feature's types: an action an effect sends back is reduced by
  /// the same specialized code as a `send`, not by generic code that looks up the types'
  /// metadata on every call (its caller, the effect's record, is generic).
  @usableFromInline let receiveFromEffect: (StoreEngine, Action, StoreTask.Box) -> Void
  /// This engine, held weakly by its running effects.
  @usableFromInline lazy var weakSelf: WeakEngine<State, Action> = WeakEngine(self)

  /// Runs once at the end of every drained batch.
  @exclusivity(unchecked) @usableFromInline package var didFinishBatch: (() -> Void)?
  /// Runs after each item is processed, with the state right after it (tests only).
  @exclusivity(unchecked) @usableFromInline package var didProcess: ((Item, State) -> Void)?
  /// Record what started each effect, for "still in flight" diagnostics (tests only).
  package var recordsEffectOrigins = false

  /// - Parameter dependencies: the values every reduce runs with; by default those in force
  ///   now (a store made inside `withDependencies { … } operation: { … }` keeps them).
  @inlinable
  package init<R: Reducer>(
    initialState: State, reducer: R, dependencies: DependencyValues = .current
  ) where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer.reduce(into:action:)
    self.dependencies = dependencies
    self.receiveFromEffect = { engine, action, box in engine.receive(action, into: box) }
  }

  deinit {
    registry.cancelAllSilently()
  }

  // MARK: Input

  /// Reduces `action` (now, or after the current action when called re-entrantly) and returns
  /// the task of every effect it starts, including effects of actions those effects send back.
  @inlinable
  package func send(_ action: Action, origin: ActionOrigin = .external) -> StoreTask {
    if isDraining {
      let box = StoreTask.Box(registry: registry)
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
  @inlinable
  func receive(_ action: Action, into box: StoreTask.Box) {
    if isDraining {
      queue.append(.action(action, .effect, .box(box)))
      return
    }
    isDraining = true
    process(action, origin: .effect, sink: .box(box))
    finishBatch()
  }

  func receive(_ modification: StateModification) {
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
    let effect = reduce(action)
    didProcess?(.action(action, origin), state)
    if case .none = effect.operation {
      if !watchedChildren.isEmpty { cancelEffectsOfRemovedChildren() }
      return
    }
    start(effect, sink: sink, keys: EffectKeys(), origin: action)
    if !watchedChildren.isEmpty { cancelEffectsOfRemovedChildren() }
  }

  /// Runs the reducer with the store's dependencies installed (nothing to bind when they are
  /// already the ones in force: one read of a trivial task-local and an identity check).
  ///
  /// `install` makes the same check, but is not inlined: the check is repeated here so an
  /// ordinary send makes no call (BENCHMARKS.md, "The dependency check on every send").
  @inlinable
  func reduce(_ action: Action) -> Effect<Action> {
    if dependencies.areInstalled { return reducer(&state, action) }
    return DependencyValues.install(dependencies) { reducer(&state, action) }
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

  /// Starts `effect`. The usual cases (a `.run`, under keys or not; `.send`; `.cancel`) are
  /// inlinable, so they are specialized for the feature's types where the store is used (no
  /// generic metadata lookups); the others are started out of line.
  @inlinable
  func start(_ effect: Effect<Action>, sink: EffectSink, keys: EffectKeys, origin: Action) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      queue.append(.action(action, .effect, replies(of: sink)))
    case .run(let run):
      launch(run, keys: keys, origin: origin, box: resolve(sink), replies: resolveReplies(sink))
    case .cancellable(let key, let cancelInFlight, let effect):
      if cancelInFlight { registry.cancel(key) }
      start(effect, sink: sink, keys: keys.appending(key), origin: origin)
    case .cancel(let keys):
      registry.cancel(keys)
    case .merge, .concatenate, .watched, .throttled:
      startComposed(effect, sink: sink, keys: keys, origin: origin)
    }
  }

  /// Starts the effects that compose others: merged, concatenated, watched or throttled.
  @usableFromInline
  func startComposed(
    _ effect: Effect<Action>, sink: EffectSink, keys: EffectKeys, origin: Action
  ) {
    switch effect.operation {
    case .merge(let effects):
      registry.batch {
        for effect in effects { start(effect, sink: sink, keys: keys, origin: origin) }
      }
    case .concatenate(let effects):
      launchSequence(
        effects, keys: keys, origin: origin, box: resolve(sink), replies: resolveReplies(sink))
    case .watched(let key, let presence, let effect):
      if let isPresent = presence.typed(as: State.self) { watchedChildren[key] = isPresent }
      start(effect, sink: sink, keys: keys, origin: origin)
    case .throttled(let key, let throttling, let effect):
      let admitted = throttleWindows.admit(
        effect, key: key, throttling: throttling, isInFlight: { registry.isInFlight($0) })
      if let admitted { start(admitted, sink: sink, keys: keys, origin: origin) }
    case .none, .send, .run, .cancellable, .cancel:
      // Never reached (`start` sends only composed effects here); for an exhaustive switch.
      // `start` must keep handling these cases itself, or the two would call each other.
      start(effect, sink: sink, keys: keys, origin: origin)
    }
  }

  /// The box an effect's own task goes into.
  @usableFromInline
  func resolve(_ sink: EffectSink) -> StoreTask.Box {
    switch sink {
    case .box(let box), .step(let box, _):
      return box
    case .direct:
      if let directBox { return directBox }
      let box = StoreTask.Box(registry: registry)
      directBox = box
      return box
    }
  }

  /// The box the effects of actions an effect sends go into.
  @usableFromInline
  func resolveReplies(_ sink: EffectSink) -> StoreTask.Box {
    if case .step(_, let replies) = sink { return replies }
    return resolve(sink)
  }

  /// Where the effects of an action sent synchronously (`.send`) go.
  @usableFromInline
  func replies(of sink: EffectSink) -> EffectSink {
    if case .step(_, let replies) = sink { return .box(replies) }
    return sink
  }

  /// Starts the task of a `.run` effect. An effect cancelled before its task began never runs.
  @inlinable
  func launch(
    _ operation: RunOperation<Action>, keys: EffectKeys, origin: Action, box: StoreTask.Box,
    replies: StoreTask.Box
  ) {
    let run = EffectRun(
      engine: weakSelf, registry: registry, operation: operation, replies: replies)
    let task = startTask.map { $0(operation.captured.priority, run.taskBody) } ?? run.startTask()
    registry.register(run, task: task, keys: keys, origin: describe(origin), into: box)
  }

  /// Starts a concatenation: each step starts when the previous step's own work has finished
  /// (not the work of actions it sent, which joins `replies`).
  private func launchSequence(
    _ effects: [Effect<Action>], keys: EffectKeys, origin: Action, box: StoreTask.Box,
    replies: StoreTask.Box
  ) {
    let registry = self.registry
    let record = EffectLifetime(registry: registry)
    let body: @Sendable () async -> Void = { [weak self] in
      for effect in effects {
        guard !Task.isCancelled else { break }
        let step = StoreTask.Box(registry: registry)
        // The engine is held only while starting a step, never across the wait, so releasing
        // the store still cancels everything.
        let started = await self?.startStep(
          effect, keys: keys, origin: origin, into: step, replies: replies)
        guard started == true else { break }
        await StoreTask(step).finish()
      }
      record.markFinished()  // its steps have ended: only the bookkeeping is left
      await Self.effectDidEnd(record)
    }
    let task = startTask?(nil, body) ?? Task(operation: body)
    registry.register(record, task: task, keys: keys, origin: describe(origin), into: box)
  }

  /// Starts one concatenation step outside any send, unless the concatenation was cancelled
  /// meanwhile (then it returns `false`).
  private func startStep(
    _ effect: Effect<Action>, keys: EffectKeys, origin: Action, into step: StoreTask.Box,
    replies: StoreTask.Box
  ) -> Bool {
    guard !Task.isCancelled else { return false }
    start(effect, sink: .step(step, replies: replies), keys: keys, origin: origin)
    if !isDraining && !queue.isEmpty {
      isDraining = true
      finishBatch()
    }
    return true
  }

  /// The bookkeeping of an effect that stopped, on the main actor (where change notifications
  /// are delivered).
  private static func effectDidEnd(_ record: EffectLifetime) {
    record.registry.finish(record)
  }

  @usableFromInline
  func describe(_ origin: Action) -> String? {
    recordsEffectOrigins ? "\(origin)" : nil
  }
}
