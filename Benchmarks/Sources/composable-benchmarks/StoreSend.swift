import ComposableCore

/// `store_send_ns` / `store_send_observed_ns`: one repetition of `Store.send` of a synchronous
/// action with no effect, on the same state and reducer as the floor; returns nanoseconds per
/// send.
@MainActor
func storeSendRepetition(observed: Bool, operations: Int) throws -> Double {
  let store = Store(initialState: Counter.State()) { Counter() }
  let observer = observed ? ReregisteringObserver { _ = store.state } : nil
  let nanoseconds = nanosecondsPerOperation(operations) {
    for _ in 0..<operations { store.send(.increment) }
  }
  observer?.stop()
  try check(store.count == operations, "store: \(store.count) of \(operations) sends applied")
  if let observer {
    try check(
      observer.changes == operations,
      "store observer saw \(observer.changes) of \(operations) changes")
  }
  return nanoseconds
}
