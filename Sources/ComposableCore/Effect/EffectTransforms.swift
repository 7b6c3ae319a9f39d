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
  ///
  /// - Parameter scope: the path component of a `Scope`, which prefixes only the keys already
  ///   namespaced by a child's lifetime (an `ifLet` child or `forEach` element below it): a
  ///   scoped reducer's own ids stay shared with its parent, as in TCA, while every child
  ///   lifetime is identified by its whole path from the root.
  func transformed<NewAction>(
    action transform: @escaping @Sendable (Action) -> NewAction,
    component: AnyHashableSendable?,
    scope: AnyHashableSendable? = nil,
    modification lift: (@MainActor @Sendable (StateModification) -> StateModification?)?,
    presence liftPresence: (@Sendable (StatePredicate) -> StatePredicate?)?
  ) -> Effect<NewAction> {
    func prefixed(_ key: EffectKey) -> EffectKey {
      if let component { return key.prefixed(by: component) }
      if let scope, !key.path.isEmpty { return key.prefixed(by: scope) }
      return key
    }
    func inner(_ effect: Self) -> Effect<NewAction> {
      effect.transformed(
        action: transform, component: component, scope: scope, modification: lift,
        presence: liftPresence)
    }
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
      return Effect<NewAction>(.merge(effects.map(inner)))
    case .concatenate(let effects):
      return Effect<NewAction>(.concatenate(effects.map(inner)))
    case .cancellable(let key, let cancelInFlight, let effect):
      return Effect<NewAction>(
        .cancellable(prefixed(key), cancelInFlight: cancelInFlight, inner(effect)))
    case .cancel(let keys):
      return Effect<NewAction>(.cancel(keys.mapped(prefixed)))
    case .watched(let key, let presence, let effect):
      let lifted = inner(effect)
      // A question that cannot be lifted (a state type mismatch) is dropped, not guessed at.
      guard let question = liftPresence.map({ $0(presence) }) ?? presence else { return lifted }
      return Effect<NewAction>(.watched(prefixed(key), presence: question, lifted))
    case .throttled(let key, let throttling, let effect):
      return Effect<NewAction>(
        .throttled(prefixed(key), throttling, inner(effect)))
    }
  }
}
