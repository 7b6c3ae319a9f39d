extension Reducer {
  /// Runs `reducer` after this one whenever the action it reduced changed the value derived by
  /// `toValue`, with the value before and after.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }   // changes state.query
  ///     .onChange(of: \.query) { oldQuery, newQuery in
  ///       Reduce { state, _ in
  ///         .run { send in await send(.search(newQuery)) }
  ///           .debounce(id: CancelID.search, for: .milliseconds(300))
  ///       }
  ///     }
  /// }
  /// ```
  ///
  /// Only changes made while this reducer reduces an action are seen (as in TCA): a change
  /// made by another reducer, or applied directly by an effect (`state.modify`), is not, until
  /// an action reduced here changes the value again. The returned reducer's effects are merged
  /// with this reducer's. A reducer without `onChange` pays nothing for it; one with it pays two
  /// calls of `toValue` and one `==` per action.
  public func onChange<Value: Equatable, Reaction: Reducer>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value) -> Reaction
  ) -> OnChangeReducer<Self, Value, Reaction>
  where Reaction.State == State, Reaction.Action == Action {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reaction: reducer)
  }

  /// Like ``onChange(of:_:)``, for a value that is not `Equatable`: `isDuplicate` tells when
  /// two values count as the same.
  ///
  /// ```swift
  /// .onChange(of: \.selection, removeDuplicates: { $0.id == $1.id }) { _, selection in … }
  /// ```
  public func onChange<Value, Reaction: Reducer>(
    of toValue: @escaping (State) -> Value,
    removeDuplicates isDuplicate: @escaping (Value, Value) -> Bool,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value) -> Reaction
  ) -> OnChangeReducer<Self, Value, Reaction>
  where Reaction.State == State, Reaction.Action == Action {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reaction: reducer)
  }
}

/// The reducer ``Reducer/onChange(of:_:)`` builds.
public struct OnChangeReducer<Base: Reducer, Value, Reaction: Reducer>: Reducer
where Reaction.State == Base.State, Reaction.Action == Base.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let isDuplicate: (Value, Value) -> Bool
  @usableFromInline let reaction: (Value, Value) -> Reaction

  @usableFromInline
  init(
    base: Base,
    toValue: @escaping (Base.State) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool,
    reaction: @escaping (Value, Value) -> Reaction
  ) {
    self.base = base
    self.toValue = toValue
    self.isDuplicate = isDuplicate
    self.reaction = reaction
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    if isDuplicate(oldValue, newValue) { return baseEffect }
    let reactionEffect = reaction(oldValue, newValue).reduce(into: &state, action: action)
    return .merge(baseEffect, reactionEffect)
  }
}
