extension Scope {
  /// Runs `child` for the parent actions of the case the case key path names, as TCA spells
  /// it: `Scope(state: \.editing, action: \.editing) { Editing() }`.
  ///
  /// The key path is resolved to its ``CasePath`` here, once.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState> & Sendable,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: CasePath(toChildAction), child: child)
  }
}
