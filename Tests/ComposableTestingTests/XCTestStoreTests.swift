import ComposableCore
import ComposableTesting
import XCTest

/// The same test store under XCTest: its failures become XCTest failures.
@MainActor
final class XCTestStoreTests: XCTestCase {
  func testStoryPasses() async {
    let clock = TestClock()
    let store = TestStore(initialState: Facts.State()) {
      Facts()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.load) { $0.loading = true }
    await clock.advance(by: .seconds(1))
    await store.receiveModification { $0.loading = false }
    await store.receive(.factLoaded("0 is a number")) { $0.fact = "0 is a number" }
  }

  /// Failures recorded while `capturing` is on are kept here instead of failing the test.
  private let captured = LockIsolated<[String]>([])
  private let capturing = LockIsolated(false)

  nonisolated override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    if capturing.current {
      captured.withValue { $0.append(description) }
    } else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func testFailureIsRecordedAsXCTestFailure() async {
    capturing.setValue(true)
    let store = TestStore(initialState: Facts.State()) { Facts() }
    await store.send(.increment) { $0.count = 3 }
    capturing.setValue(false)
    let failures = captured.current
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.contains("−  count: 3,\n+  count: 1,") == true, "\(failures)")
  }
}

/// Skipped assertions under XCTest: an expected failure on Apple platforms, a line on standard
/// error on Linux; never a failure.
@MainActor
final class XCTestSkippedAssertionTests: XCTestCase {
  func testSkippedAssertionsDoNotFail() async {
    // Were any skipped assertion recorded as a failure, this test would fail.
    let store = TestStore(initialState: Facts.State()) { Facts() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.increment)
    await store.send(.loadTwice)
    await store.receive(.factLoaded("first")) { $0.fact = "first" }
  }
}
