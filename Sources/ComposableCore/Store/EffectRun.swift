/// One `.run` effect a store started: its record in the registry (``EffectLifetime``), its
/// operation, and where what it sends goes. One object serves all of them (its task's closure
/// and the effect's `send` and `modify` capture only it), so an effect costs few allocations.
final class EffectRun<State, Action: Sendable>: EffectLifetime, EffectInput, @unchecked Sendable {
  /// Weak: a running effect never keeps its store alive.
  private let engine: WeakEngine<State, Action>
  /// The box the effects of actions this effect sends go into.
  private let replies: StoreTask.Box
  private let operation: RunOperation<Action>

  init(
    engine: WeakEngine<State, Action>, registry: EffectRegistry, operation: RunOperation<Action>,
    replies: StoreTask.Box
  ) {
    self.engine = engine
    self.operation = operation
    self.replies = replies
    super.init(registry: registry)
  }

  /// Starts the effect's task as a plain task, with the closure written where the task takes
  /// it (a closure passed on from elsewhere costs the task another allocation).
  func startTask() -> Task<Void, Never> {
    Task(priority: operation.priority) { @MainActor in await self.run() }
  }

  /// The closure the effect's task runs, for a test store that starts tasks its own way.
  var taskBody: @MainActor @Sendable () async -> Void {
    { @MainActor in await self.run() }
  }

  /// The effect's task. It begins on the main actor, after the reduce and batch that started
  /// it: an effect cancelled before then (in the same turn) never runs its operation. The
  /// operation runs off the main actor and marks the effect finished there, the moment it
  /// returns (a test store's exact waits count on it); the bookkeeping comes back here.
  @MainActor @inline(__always)
  private func run() async {
    if Task.isCancelled {
      markFinished()
    } else {
      await perform()
    }
    registry.finish(self)
  }

  /// The operation, off the main actor. Inlined into the task's closure, and it keeps nothing
  /// but `self` and the operation's closure across the wait: every byte of the task's frames
  /// is held while the effect is suspended, and a chain that outgrows the task allocator's
  /// first slab (984 bytes, with `Task.sleep`'s frames) costs every effect a second one.
  @inline(__always)
  private func perform() async {
    if operation.isContextInForce {
      do {
        try await operation.operation(Send(context))
      } catch {
        await operation.handle(error, Send(context))
      }
    } else {
      await operation.runInstallingContext(context)
    }
    markFinished()
  }

  private var context: EffectContext<Action> { EffectContext(input: self, lifetime: self) }

  func send(_ action: Action) {
    engine.engine?.receive(action, into: replies)
  }

  func modify(_ modification: StateModification) {
    engine.engine?.receive(modification)
  }
}
