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
  /// The lifetime of the effect the current task works for, if any (test clocks use it to
  /// tell a woken timer from a finished effect).
  @TaskLocal package static var current: EffectLifetime?

  private let phase = LockIsolated(Phase.scheduled)

  private enum Phase: Comparable {
    case scheduled, started, finished
  }

  package init() {}

  /// Whether the operation began executing.
  package var hasStarted: Bool { phase.current >= .started }

  /// Whether the operation returned.
  package var isFinished: Bool { phase.current == .finished }

  func markStarted() { phase.setValue(.started) }
  func markFinished() { phase.setValue(.finished) }
}
