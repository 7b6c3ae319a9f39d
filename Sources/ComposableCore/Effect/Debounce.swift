extension Effect {
  /// Delays this effect by `duration`, restarting the delay whenever another effect debounced
  /// with the same `id` arrives first: of a burst, only the last one runs, `duration` after the
  /// reduce that returned it.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   state.query = query
  ///   return .run { send in await send(.results(try await client.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300))
  /// ```
  ///
  /// In a test, a `TestClock` drives it: `await clock.advance(by: .milliseconds(300))`.
  ///
  /// The delay sleeps on `clock`, by default the `\.clock` dependency in force when the effect
  /// is built (in the reduce that returns it). Like `.cancellable(id:cancelInFlight: true)`,
  /// a new debounced effect also cancels the previous one if that one already started its work;
  /// `.cancel(id:)` cancels a pending one. Ids are scoped as for
  /// ``cancellable(id:cancelInFlight:)``.
  /// Debouncing `.none` gives `.none` (and leaves a pending effect alone).
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: (any Clock<Duration>)? = nil
  ) -> Self {
    if case .none = operation { return .none }
    let sleep = (clock ?? DependencyValues.current.clock).sleep(endingIn: duration)
    return Self.concatenate(.run { _ in try await sleep() }, self)
      .cancellable(id: id, cancelInFlight: true)
  }
}
