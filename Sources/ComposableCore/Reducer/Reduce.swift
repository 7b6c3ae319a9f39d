/// A reducer made from a closure.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .increment:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
  @usableFromInline let run: (inout State, Action) -> Effect<Action>

  /// Creates a reducer from `reduce`.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.run = reduce
  }

  /// Erases `reducer`'s type.
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.run = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    run(&state, action)
  }
}

/// Groups reducers that run in order on the same state, so modifiers apply to all of them.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.a, action: .a) { A() }
///   Scope(state: \.b, action: .b) { B() }
/// }
/// .dependency(\.clock, clock)
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline let reducers: Reducers

  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
