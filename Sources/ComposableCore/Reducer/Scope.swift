/// Runs a child reducer on part of the parent's state, for the parent actions of one case.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.editing, action: .editing) { Editing() }
///   Reduce { state, action in … }   // runs after the child
/// }
/// ```
///
/// The child's effects are lifted: their actions are embedded in the case and their state
/// modifications reach `state[keyPath: toChildState]`. The child reducer's own cancellation ids
/// are shared with the parent, as in TCA: the parent can cancel a child's effect with
/// `.cancel(id:)` and the child's own id. A feature composed twice side by side must therefore
/// make its own ids distinct (for example by carrying its own identifier in them).
///
/// What lives below an `ifLet` or `forEach` inside the child is another matter: each such
/// child's lifetime, and the ids it namespaces, include this scope's key path, so two copies
/// of one feature under two scopes never cancel, or keep alive, each other's children's work.
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State> & Sendable
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState> & Sendable,
    action toChildAction: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    if case .none = effect.operation { return .none }
    return lift(effect)
  }

  /// Embeds the child's actions, puts the lifetimes of children below it under this scope's key
  /// path, and lifts its state modifications.
  @usableFromInline
  func lift(_ effect: Effect<Child.Action>) -> Effect<ParentAction> {
    let keyPath = toChildState
    return effect.transformed(
      action: toChildAction.embed,
      component: nil,
      scope: AnyHashableSendable(keyPath),
      modification: { modification in
        StateModification.lift(
          modification,
          describing: "\(keyPath)"
        ) { (parent: inout ParentState, body) in
          body(&parent[keyPath: keyPath])
          return true
        }
      },
      presence: StatePredicate.lifting { (parent: ParentState) in parent[keyPath: keyPath] }
    )
  }
}
