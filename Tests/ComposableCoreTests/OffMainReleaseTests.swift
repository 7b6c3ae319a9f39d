import ComposableCore
import ComposableTesting
import Testing

/// Holds the last reference to a value, so a test can drop it on another thread.
private final class LastReference<Value: Sendable>: @unchecked Sendable {
  private let lock = LockIsolated<Value?>(nil)
  init(_ value: Value) { lock.setValue(value) }
  func drop() { lock.setValue(nil) }
}

@MainActor
@Suite("Releasing a store off the main actor")
struct OffMainReleaseTests {
  @Test(
    "A store released on another thread cancels its running effects, without racing the main actor")
  func storeReleasedOffMain() async {
    let log = Log<String>()
    var store: Store<Jobs.State, Jobs.Action>? = Store(initialState: Jobs.State()) {
      Jobs(gate: Gate(), log: log)
    }
    let running = store?.send(.startLong("one", cancelInFlight: false))
    await log.wait(for: "one started")
    let last = store.map(LastReference.init)
    store = nil
    // The deinitializer runs on a detached task's thread while the effect ends on its own.
    await Task.detached { last?.drop() }.value
    await running?.finish(timeout: .seconds(15))
    #expect(log.all == ["one started", "one cancelled"])
  }
}
