/// What a running effect talks to: the store's action and state-modification inputs, and the
/// effect's own lifetime. Transformed (not copied) as effects are mapped and lifted.
struct EffectContext<Action: Sendable>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void
  let modify: @MainActor @Sendable (StateModification) -> Void
  let lifetime: EffectLifetime

  func mapping<Child>(
    _ transform: @escaping @Sendable (Child) -> Action
  ) -> EffectContext<Child> {
    let send = self.send
    return EffectContext<Child>(
      send: { send(transform($0)) },
      modify: modify,
      lifetime: lifetime
    )
  }

  func lifting(
    _ lift: @escaping @MainActor @Sendable (StateModification) -> StateModification?
  ) -> EffectContext {
    let modify = self.modify
    return EffectContext(
      send: send,
      modify: { modification in lift(modification).map(modify) },
      lifetime: lifetime
    )
  }
}

/// Whether an effect's work has finished; sends after that are programmer errors.
@MainActor
final class EffectLifetime: Sendable {
  var isFinished = false
  nonisolated init() {}
}
