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

/// Whether an effect's operation has returned; sends after that are programmer errors.
///
/// Marked from the effect's own thread the moment its operation returns, before the store's
/// bookkeeping runs on the main actor, so "still running" checks never count an effect that
/// has only its bookkeeping left.
package final class EffectLifetime: Sendable {
  private let finished = LockIsolated(false)

  package init() {}

  /// Whether the operation returned (or never ran, having been cancelled before it began).
  package var isFinished: Bool { finished.current }

  func markFinished() { finished.setValue(true) }
}
