/// One `.run` effect a store started: its lifetime, its registry token, its operation, and
/// where what it sends goes. One object per effect serves all four (its task's closure and the
/// effect's `send` and `modify` capture only it), so an effect costs few allocations.
final class EffectRun<State, Action: Sendable>: EffectInput<Action>, @unchecked Sendable {
  /// Read on the main actor only. Weak: a running effect never keeps its store alive.
  private weak var engine: StoreEngine<State, Action>?
  /// The box the effects of actions this effect sends go into.
  private let replies: StoreTask.Box
  private let operation: RunOperation<Action>
  let token: EffectRegistry.Token

  init(
    engine: StoreEngine<State, Action>, operation: RunOperation<Action>,
    replies: StoreTask.Box, token: EffectRegistry.Token
  ) {
    self.engine = engine
    self.operation = operation
    self.replies = replies
    self.token = token
    super.init(registry: engine.registry)
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
      await operation.perform(EffectContext(input: self))
    }
    registry.finish(token)
  }

  override func send(_ action: Action) {
    engine?.receive(action, into: replies)
  }

  override func modify(_ modification: StateModification) {
    engine?.receive(modification)
  }
}
