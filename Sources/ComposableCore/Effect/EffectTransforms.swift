extension Effect {
  /// Transforms the actions this effect sends.
  ///
  /// ```swift
  /// childEffect.map(AppAction.editing)
  /// ```
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    transformed(action: transform, component: nil, modification: nil, presence: nil)
  }

  /// Lifts a child reducer's effect into its parent: actions are embedded, cancellation ids are
  /// namespaced under `component`, state modifications are lifted by `modification`, and
  /// presence questions by `presence`.
  func transformed<NewAction>(
    action transform: @escaping @Sendable (Action) -> NewAction,
    component: AnyHashableSendable?,
    modification lift: (@MainActor @Sendable (StateModification) -> StateModification?)?,
    presence liftPresence: (@Sendable (StatePredicate) -> StatePredicate?)?
  ) -> Effect<NewAction> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let run):
      return Effect<NewAction>(
        .run(
          run.transformed { (context: EffectContext<NewAction>) in
            let mapped = context.mapping(transform)
            return lift.map { mapped.lifting($0) } ?? mapped
          }))
    case .merge(let effects):
      return Effect<NewAction>(
        .merge(
          effects.map {
            $0.transformed(
              action: transform, component: component, modification: lift, presence: liftPresence)
          }))
    case .concatenate(let effects):
      return Effect<NewAction>(
        .concatenate(
          effects.map {
            $0.transformed(
              action: transform, component: component, modification: lift, presence: liftPresence)
          }))
    case .cancellable(let key, let cancelInFlight, let effect):
      return Effect<NewAction>(
        .cancellable(
          component.map(key.prefixed(by:)) ?? key,
          cancelInFlight: cancelInFlight,
          effect.transformed(
            action: transform, component: component, modification: lift, presence: liftPresence)
        ))
    case .cancel(let key):
      return Effect<NewAction>(.cancel(component.map(key.prefixed(by:)) ?? key))
    case .watched(let key, let presence, let effect):
      let inner = effect.transformed(
        action: transform, component: component, modification: lift, presence: liftPresence)
      // A question that cannot be lifted (a state type mismatch) is dropped, not guessed at.
      guard let lifted = liftPresence.map({ $0(presence) }) ?? presence else { return inner }
      return Effect<NewAction>(
        .watched(component.map(key.prefixed(by:)) ?? key, presence: lifted, inner))
    case .throttled(let key, let throttling, let effect):
      return Effect<NewAction>(
        .throttled(
          component.map(key.prefixed(by:)) ?? key,
          throttling,
          effect.transformed(
            action: transform, component: component, modification: lift, presence: liftPresence)
        ))
    }
  }
}
