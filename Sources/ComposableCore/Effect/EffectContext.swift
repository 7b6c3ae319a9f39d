/// What a running effect talks to: its store's action and state-modification inputs, and the
/// effect's own lifetime. Transformed (not copied) as effects are mapped and lifted.
///
/// One reference: a plain `.run` effect's context is the store's record of it (`EffectRun`),
/// so an effect's task carries as little as a plain task's.
struct EffectContext<Action: Sendable>: Sendable {
  let input: EffectInput<Action>

  /// Whether the effect's operation has returned.
  var lifetime: EffectLifetime { input }

  @MainActor
  func send(_ action: Action) { input.send(action) }

  @MainActor
  func modify(_ modification: StateModification) { input.modify(modification) }

  func mapping<Child>(
    _ transform: @escaping @Sendable (Child) -> Action
  ) -> EffectContext<Child> {
    EffectContext<Child>(input: MappedEffectInput(parent: input, transform: transform))
  }

  func lifting(
    _ lift: @escaping @MainActor @Sendable (StateModification) -> StateModification?
  ) -> EffectContext {
    EffectContext(input: LiftedEffectInput(parent: input, lift: lift))
  }
}

/// Whether an effect's operation has returned, and where its state modifications go; sends
/// after it returned are programmer errors.
///
/// Marked from the effect's own thread the moment its operation returns, before the store's
/// bookkeeping runs on the main actor, so "still running" checks never count an effect that
/// has only its bookkeeping left. Guarded by its store's registry lock (no lock of its own: an
/// effect costs as few allocations as it can). The store's record of a running effect
/// (`EffectRun`) is one: the effect's lifetime, its inputs and its registry record are one
/// object. Mapped and lifted inputs answer for the effect they wrap: every member about the
/// lifetime forwards to it (their own flag is never used).
package class EffectLifetime: @unchecked Sendable {
  let registry: EffectRegistry
  /// Guarded by `registry`'s lock.
  private var finished = false

  init(registry: EffectRegistry) {
    self.registry = registry
  }

  /// Whether the operation returned (or never ran, having been cancelled before it began).
  package var isFinished: Bool { registry.withLock { finished } }

  /// ``isFinished`` for the registry, which holds its lock.
  var isFinishedWhileLocked: Bool { finished }

  func markFinished() { registry.withLock { finished = true } }

  /// Applies a state modification from the effect (overridden by every input).
  @MainActor
  func modify(_ modification: StateModification) {}
}

/// Where a running effect's actions go: the store's record of the effect, or a scope's view of
/// it (``EffectContext/mapping(_:)``, ``EffectContext/lifting(_:)``).
class EffectInput<Action: Sendable>: EffectLifetime, @unchecked Sendable {
  /// Delivers an action from the effect (overridden by every input).
  @MainActor
  func send(_ action: Action) {}
}

/// A child effect's input: its actions embedded into the parent's.
private final class MappedEffectInput<Child: Sendable, Parent: Sendable>: EffectInput<Child>,
  @unchecked Sendable
{
  private let parent: EffectInput<Parent>
  private let transform: @Sendable (Child) -> Parent

  init(parent: EffectInput<Parent>, transform: @escaping @Sendable (Child) -> Parent) {
    self.parent = parent
    self.transform = transform
    super.init(registry: parent.registry)
  }

  override var isFinished: Bool { parent.isFinished }
  override var isFinishedWhileLocked: Bool { parent.isFinishedWhileLocked }
  override func markFinished() { parent.markFinished() }
  override func send(_ action: Child) { parent.send(transform(action)) }
  override func modify(_ modification: StateModification) { parent.modify(modification) }
}

/// A child effect's input: its state modifications lifted to the parent's state.
private final class LiftedEffectInput<Action: Sendable>: EffectInput<Action>, @unchecked Sendable {
  private let parent: EffectInput<Action>
  private let lift: @MainActor @Sendable (StateModification) -> StateModification?

  init(
    parent: EffectInput<Action>,
    lift: @escaping @MainActor @Sendable (StateModification) -> StateModification?
  ) {
    self.parent = parent
    self.lift = lift
    super.init(registry: parent.registry)
  }

  override var isFinished: Bool { parent.isFinished }
  override var isFinishedWhileLocked: Bool { parent.isFinishedWhileLocked }
  override func markFinished() { parent.markFinished() }
  override func send(_ action: Action) { parent.send(action) }
  override func modify(_ modification: StateModification) {
    lift(modification).map(parent.modify)
  }
}
