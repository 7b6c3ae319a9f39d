/// A type-erased question about some reducer's state — "is this child still there?" — lifted
/// through scopes until it asks it of the store's root state.
@usableFromInline
package struct StatePredicate: Sendable {
  private let box: any Sendable

  init<State>(_ body: @escaping @Sendable (State) -> Bool) {
    self.box = Typed(body: body)
  }

  /// The question as a function of `State`, or `nil` when it was made for another state type.
  func typed<State>(as _: State.Type) -> (@Sendable (State) -> Bool)? {
    (box as? Typed<State>)?.body
  }

  /// Asks the question of a parent through `project`, which finds the child's state in a parent
  /// (`nil`: the child's own container is gone, so the answer is `false`).
  static func lift<Parent, Child>(
    _ predicate: StatePredicate,
    through project: @escaping @Sendable (Parent) -> Child?
  ) -> StatePredicate? {
    guard let body = predicate.typed(as: Child.self) else { return nil }
    return StatePredicate { (parent: Parent) in project(parent).map(body) ?? false }
  }

  /// "Is the child that `project` finds in a parent there?"
  static func presence<Parent, Child>(
    of project: @escaping @Sendable (Parent) -> Child?
  ) -> StatePredicate {
    StatePredicate { (parent: Parent) in project(parent) != nil }
  }

  /// Lifts child-level questions to a parent through `project` (for `Effect.transformed`).
  static func lifting<Parent, Child>(
    through project: @escaping @Sendable (Parent) -> Child?
  ) -> @Sendable (StatePredicate) -> StatePredicate? {
    { predicate in lift(predicate, through: project) }
  }

  private struct Typed<State>: Sendable {
    let body: @Sendable (State) -> Bool
  }
}
