extension Effect {
  /// Transforms the actions this effect sends.
  ///
  /// ```swift
  /// childEffect.map(AppAction.editing)
  /// ```
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    transformed(action: transform, component: nil, modification: nil)
  }

  /// Lifts a child reducer's effect into its parent: actions are embedded, cancellation ids are
  /// namespaced under `component`, and state modifications are lifted by `modification`.
  func transformed<NewAction>(
    action transform: @escaping @Sendable (Action) -> NewAction,
    component: AnyHashableSendable?,
    modification lift: (@MainActor @Sendable (StateModification) -> StateModification?)?
  ) -> Effect<NewAction> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let run):
      return Effect<NewAction>(.run(run.transformed { (context: EffectContext<NewAction>) in
        let mapped = context.mapping(transform)
        return lift.map { mapped.lifting($0) } ?? mapped
      }))
    case .merge(let effects):
      return Effect<NewAction>(.merge(effects.map {
        $0.transformed(action: transform, component: component, modification: lift)
      }))
    case .concatenate(let effects):
      return Effect<NewAction>(.concatenate(effects.map {
        $0.transformed(action: transform, component: component, modification: lift)
      }))
    case .cancellable(let key, let cancelInFlight, let effect):
      return Effect<NewAction>(.cancellable(
        component.map(key.prefixed(by:)) ?? key,
        cancelInFlight: cancelInFlight,
        effect.transformed(action: transform, component: component, modification: lift)
      ))
    case .cancel(let key):
      return Effect<NewAction>(.cancel(component.map(key.prefixed(by:)) ?? key))
    }
  }
}
