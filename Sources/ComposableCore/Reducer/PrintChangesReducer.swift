extension Reducer {
  /// Prints every action this reducer receives and how it changed the state, for debugging.
  ///
  /// ```swift
  /// let store = Store(initialState: Feature.State()) {
  ///   Feature()._printChanges()
  /// }
  /// ```
  ///
  /// writes, for each action sent or received from an effect:
  ///
  /// ```
  /// received action:
  ///   .increment
  ///    Feature.State(
  ///   −  count: 0,
  ///   +  count: 1,
  ///    )
  /// ```
  ///
  /// As in TCA, it prints only in debug builds (`DEBUG` defined); in a release build the
  /// modifier only calls this reducer. Pass `nil` to turn it off. Changes an effect applies
  /// directly (`state.modify`) do not go through reducers and are not printed. The report is
  /// written on the main actor as the action is reduced, so keep it on while debugging only:
  /// rendering reflects over the whole state twice per action.
  ///
  /// - Parameter printer: how to report; by default ``ChangePrinter/diff(to:)`` to standard
  ///   error.
  public func _printChanges(
    _ printer: ChangePrinter<State, Action>? = .diff()
  ) -> PrintChangesReducer<Self> {
    PrintChangesReducer(base: self, printer: printer)
  }
}

/// The reducer `_printChanges(_:)` builds (a debugging modifier of every ``Reducer``).
public struct PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: ChangePrinter<Base.State, Base.Action>?

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    #if DEBUG
      if let printer {
        let oldState = state
        let effect = base.reduce(into: &state, action: action)
        printer.printChange(action, oldState, state)
        return effect
      }
    #endif
    return base.reduce(into: &state, action: action)
  }
}
