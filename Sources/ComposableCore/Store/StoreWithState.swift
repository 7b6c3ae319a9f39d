extension Store {
  /// Reads the current state once, without registering observation: for a one-off read (in an
  /// action handler, a log line, a test) that must not make a view or a
  /// `withObservationTracking` scope depend on the whole state.
  ///
  /// ```swift
  /// let count = store.withState { $0.count }
  /// ```
  ///
  /// Reading ``state`` (or `store.count` by dynamic member) inside observation tracking
  /// registers the read, so the observer is told of the next change; `withState` does not.
  @inlinable
  public func withState<Value>(_ body: (_ state: State) throws -> Value) rethrows -> Value {
    try body(currentState)
  }
}
