/// `floor_send_ns` / `floor_send_observed_ns`: one repetition of sends on the hand-written
/// floor; returns nanoseconds per send.
@MainActor
func floorSendRepetition(observed: Bool, operations: Int) throws -> Double {
  let floor = FloorCounter(initialState: Counter.State())
  let observer = observed ? ReregisteringObserver { _ = floor.state } : nil
  let nanoseconds = nanosecondsPerOperation(operations) {
    for _ in 0..<operations { floor.send(.increment) }
  }
  observer?.stop()
  try check(
    floor.state.count == operations, "floor: \(floor.state.count) of \(operations) sends applied")
  if let observer {
    try check(
      observer.changes == operations,
      "floor observer saw \(observer.changes) of \(operations) changes")
  }
  return nanoseconds
}
