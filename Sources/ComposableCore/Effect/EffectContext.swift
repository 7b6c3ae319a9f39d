/// What a running effect talks to: its store's action and state-modification inputs, and the
/// effect's own lifetime. Transformed (not copied) as effects are mapped and lifted.
///
/// For a plain `.run` effect both are the store's record of it (`EffectRun`), so an effect's
/// task carries as little as a plain task's; scopes wrap the input, never the lifetime.
struct EffectContext<Action: Sendable>: Sendable {
  let input: any EffectInput<Action>
  /// Whether the effect's operation has returned.
  let lifetime: EffectLifetime

  /// Always inlined: an effect's task makes its context right before calling the operation,
  /// and an opaque call's result would take room in the task's frame across the wait.
  @inline(__always)
  init(input: any EffectInput<Action>, lifetime: EffectLifetime) {
    self.input = input
    self.lifetime = lifetime
  }

  @MainActor
  func send(_ action: Action) { input.send(action) }

  func mapping<Child>(
    _ transform: @escaping @Sendable (Child) -> Action
  ) -> EffectContext<Child> {
    EffectContext<Child>(
      input: MappedEffectInput(parent: input, transform: transform), lifetime: lifetime)
  }

  func lifting(
    _ lift: @escaping @MainActor @Sendable (StateModification) -> StateModification?
  ) -> EffectContext {
    EffectContext(input: LiftedEffectInput(parent: input, lift: lift), lifetime: lifetime)
  }
}

/// Where a running effect's state modifications go: the store's record of the effect, or a
/// scope's view of it.
protocol EffectStateInput: AnyObject, Sendable {
  /// Applies a state modification from the effect.
  @MainActor func modify(_ modification: StateModification)
}

/// Where a running effect's actions (and state modifications) go: the store's record of the
/// effect, or a scope's view of it (``EffectContext/mapping(_:)``, ``EffectContext/lifting(_:)``).
protocol EffectInput<Action>: EffectStateInput {
  associatedtype Action: Sendable
  /// Delivers an action from the effect.
  @MainActor func send(_ action: Action)
}

/// A child effect's input: its actions embedded into the parent's.
private final class MappedEffectInput<Child: Sendable, Parent: Sendable>: EffectInput {
  private let parent: any EffectInput<Parent>
  private let transform: @Sendable (Child) -> Parent

  init(parent: any EffectInput<Parent>, transform: @escaping @Sendable (Child) -> Parent) {
    self.parent = parent
    self.transform = transform
  }

  func send(_ action: Child) { parent.send(transform(action)) }
  func modify(_ modification: StateModification) { parent.modify(modification) }
}

/// A child effect's input: its state modifications lifted to the parent's state.
private final class LiftedEffectInput<Action: Sendable>: EffectInput {
  private let parent: any EffectInput<Action>
  private let lift: @MainActor @Sendable (StateModification) -> StateModification?

  init(
    parent: any EffectInput<Action>,
    lift: @escaping @MainActor @Sendable (StateModification) -> StateModification?
  ) {
    self.parent = parent
    self.lift = lift
  }

  func send(_ action: Action) { parent.send(action) }
  func modify(_ modification: StateModification) {
    lift(modification).map(parent.modify)
  }
}
