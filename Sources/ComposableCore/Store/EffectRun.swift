/// One `.run` effect a store started: its record in the registry (``EffectLifetime``), its
/// operation, and where what it sends goes. One object serves all of them (its task's closure
/// and the effect's `send` and `modify` capture only it), so an effect costs few allocations.
@usableFromInline
final class EffectRun<State, Action: Sendable>: EffectLifetime, EffectInput, @unchecked Sendable {
  // The operation's parts, first: at offsets fixed for every `State` and `Action`, so the
  // task reads them without the type's metadata.
  @usableFromInline let operation: RunOperation<Action>.Operation
  @usableFromInline let handler: RunOperation<Action>.ErrorHandler?
  @usableFromInline let captured: CapturedContext
  /// Weak: a running effect never keeps its store alive.
  @usableFromInline let engine: WeakEngine<State, Action>
  /// The box the effects of actions this effect sends go into.
  @usableFromInline let replies: StoreTask.Box

  /// Inlinable, as the store's `launch`, so that making the effect is specialized for the
  /// feature's types (no generic metadata lookups).
  @inlinable
  init(
    engine: WeakEngine<State, Action>, registry: EffectRegistry, operation: RunOperation<Action>,
    replies: StoreTask.Box
  ) {
    self.operation = operation.operation
    self.handler = operation.handler
    self.captured = operation.captured
    self.engine = engine
    self.replies = replies
    super.init(registry: registry)
  }

  /// Starts the effect's task as a plain task, with the closure written where the task takes
  /// it (a closure passed on from elsewhere costs the task another allocation).
  @MainActor @usableFromInline
  func startTask() -> Task<Void, Never> {
    guard captured.isInForce else {
      return Task(priority: captured.priority) { @MainActor in await self.run() }
    }
    return startTask(on: MainActor.shared)
  }

  /// The usual task: the dependencies and issue reporters the effect captured are those in
  /// force (the task inherits them from here), so nothing is bound.
  ///
  /// The task begins on the main actor, as every effect's, runs its operation off it, and
  /// ends there: the closure is isolated to `mainActor` through the captured parameter, and
  /// so is the inlined `perform`, which comes back to it once the operation returns. An
  /// operation that last sent an action (the usual case) returns on the main actor already, so
  /// its effect ends with no hop at all: no thread is woken to do the bookkeeping, and nothing
  /// contends for the registry's lock with the main actor (BENCHMARKS.md, "The effect's
  /// ending (stop 44)"). An operation that returned elsewhere hops back once, as an
  /// `@MainActor` task's closure would. So an effect needs a main-actor turn to end (and its
  /// `StoreTask` to finish), and what its operation captured is released on the main actor,
  /// when its task completes.
  ///
  /// The closure keeps 80 bytes across the wait, as a plain task's does, which keeps an effect
  /// suspended in `Task.sleep` within the task allocator's first slab (984 bytes) instead of
  /// costing it a second one. What makes it that small: one path, the operation read from a
  /// field at a fixed offset, `Send` made inline, and the ending and error handling out of
  /// line. After any change here, check the size with `scripts/task-frame-sizes` on a release
  /// build.
  private func startTask(on mainActor: isolated MainActor) -> Task<Void, Never> {
    Task(priority: captured.priority) {
      _ = mainActor  // captured: the closure is isolated to it, so the task begins there
      guard self.begin() else { return }
      await Self.perform(self.operation, Send(self.context), for: self, on: mainActor)
    }
  }

  /// The closure the effect's task runs, for a test store that starts tasks its own way.
  @usableFromInline var taskBody: @MainActor @Sendable () async -> Void {
    { @MainActor in await self.run() }
  }

  /// The effect's task in any context: for a test store, and for an effect whose captured
  /// dependencies or reporters are not the ones in force. It begins on the main actor, after the
  /// reduce and batch that started it: an effect cancelled before then (in the same turn) never
  /// runs its operation. The operation runs off the main actor and marks the effect finished
  /// there, the moment it returns (a test store's exact waits count on it); the bookkeeping
  /// comes back here.
  @MainActor
  private func run() async {
    guard !Task.isCancelled else {
      registry.finish(self)
      return
    }
    await performInstallingContext()
    registry.finish(self)
  }

  /// Whether the operation may begin: an effect cancelled before its task began ends here.
  /// Called on the main actor, first thing in the usual task. (A cancelled effect is out of
  /// flight already, so its end notifies no observer of keys.)
  private func begin() -> Bool {
    guard Task.isCancelled else { return true }
    end()
    return false
  }

  /// The operation, off the main actor, called directly; then, back on `isolation`, the effect
  /// is ended altogether when that is the main actor (the usual task), or only marked finished
  /// when it is `nil` (its caller ends it). Inlined into the task's closure: it keeps nothing
  /// across the wait but `isolation` and the record.
  @inline(__always)
  private static func perform(
    _ operation: RunOperation<Action>.Operation, _ send: Send<Action>, for run: EffectRun,
    on isolation: isolated (any Actor)?
  ) async {
    do {
      try await operation(send)
    } catch {
      // A cancelled effect ends quietly, without a call (cancelling 10,000 effects makes
      // 10,000 of these); other errors go to the handler.
      if !endsEffectQuietly(error) { await run.handle(error) }
    }
    if isolation == nil { run.markFinished() } else { run.end() }
  }

  /// The operation, off the main actor, with its captured context bound when it is not the
  /// one in force.
  private func performInstallingContext() async {
    if captured.isInForce {
      await Self.perform(operation, Send(context), for: self, on: nil)
    } else {
      await captured.install {
        await Self.perform(operation, Send(context), for: self, on: nil)
      }
    }
  }

  /// Marks the effect finished and takes it out of the registry, on the main actor. Out of
  /// line, as ``EffectLifetime/markFinished()``.
  @inline(never)
  private func end() { registry.finishOnMainActor(self) }

  /// Out of line: an error's handling costs the task's frame nothing until it happens.
  @inline(never)
  private func handle(_ error: any Error) async {
    await captured.handle(error, Send(context), handler: handler)
  }

  @inline(__always)
  private var context: EffectContext<Action> { EffectContext(input: self, lifetime: self) }

  func send(_ action: Action) {
    guard let engine = engine.engine else { return }
    engine.receiveFromEffect(engine, action, replies)
  }

  func modify(_ modification: StateModification) {
    engine.engine?.receive(modification)
  }
}
