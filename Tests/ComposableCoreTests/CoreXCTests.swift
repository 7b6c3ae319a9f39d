import ComposableCore
import ComposableTesting
import Observation
import XCTest

/// The core's rules under XCTest too: stores and effects behave the same whichever framework
/// runs them.
@MainActor
final class CoreXCTests: XCTestCase {
  func testReentrantSendsAreReducedInOrderInOneBatch() {
    let store = Store(initialState: Siblings.State()) { Siblings() }
    let left = store.scope(state: \.left, action: .left)
    var notifications = 0
    withObservationTracking {
      _ = store.state
    } onChange: {
      MainActor.assumeIsolated {
        notifications += 1
        left.send(.increment)  // re-entrant: queued behind the current batch
      }
    }
    store.send(.right(.increment))
    XCTAssertEqual(store.right.count, 1)
    XCTAssertEqual(store.left.count, 1)
    XCTAssertEqual(notifications, 1)
  }

  func testStoreTaskFinishAwaitsTheEffectAndDependenciesReachIt() async {
    let store = Store(initialState: Greeter.State()) {
      Greeter().dependency(\.greeting, Greeting(text: "xctest"))
    }
    await store.send(.greet).finish(timeout: .seconds(15))
    XCTAssertEqual(store.seen, ["reduce: xctest", "effect: xctest, child: xctest, task: xctest"])
  }
}
