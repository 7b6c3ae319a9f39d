import ComposableCore
import ComposableTesting
import Testing

/// Every failure a TestStore can report, captured and asserted: a test store that cannot fail
/// would prove nothing.
@MainActor
@Suite("TestStore failures")
struct TestStoreFailureTests {
  @Test("A wrong state assertion fails with a −expected +actual line diff")
  func stateMismatchDiff() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(
      recorder.messages == [
        """
        State was not as expected after sending increment: (−expected +actual)
         Facts.State(
        −  count: 2,
        +  count: 1,
           fact: nil,
           loading: false,
         )
        """
      ])
  }

  @Test("An unasserted change fails even without a closure")
  func unassertedChange() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      await store.send(.increment)
    }
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("−  count: 0,\n+  count: 1,") == true)
  }

  @Test("A closure for an action that changes nothing fails with 'expected state to change'")
  func expectedStateToChange() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      await store.send(.noop) { $0.count = 0 }
    }
    #expect(
      recorder.messages == [
        "Expected state to change after sending noop, but no change occurred. If no change is expected, omit the assertion closure."
      ])
  }

  @Test("An action received but never asserted fails at the end, naming it")
  func unassertedReceivedAction() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      await store.send(.loadTwice)
      await store.receiveModification { $0.count = 10 }
      await store.finish()
    }
    #expect(recorder.messages.count == 1)
    let message = recorder.messages.first ?? ""
    #expect(message.hasPrefix("The store received 2 item(s) the test never asserted:"))
    #expect(message.contains("  • factLoaded(\"first\")"))
    #expect(
      message.contains("  • a state modification (TestStoreFailureTests/Fixtures.swift")
        || message.contains("  • a state modification (ComposableTestingTests/Fixtures.swift"))
    #expect(message.contains("Assert each with `await store.receive(…)`"))
  }

  @Test("Sending before handling received items fails and lists them")
  func sendBeforeReceiving() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      await store.send(.loadTwice)
      await store.finish()
      await store.send(.increment) { $0.count = 111 }
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.hasPrefix("Must handle 3 received item(s) before sending increment:")
        == true)
  }

  @Test("An effect still running at the end fails, naming the action that started it")
  func effectStillInFlight() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) {
        Facts()
      } withDependencies: {
        $0.clock = TestClock()
      }
      await store.send(.startTimer)
    }
    #expect(recorder.messages.count == 1)
    let message = recorder.messages.first ?? ""
    #expect(
      message.hasPrefix(
        "1 effect(s) were still running when the test ended, started by:\n  • startTimer"))
    #expect(message.contains("Await them with `await store.finish()`"))
  }

  @Test("Receiving the wrong action fails with both actions named")
  func receiveWrongAction() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      await store.send(.loadTwice)
      await store.finish()
      await store.receive(.tick)
      store.skipReceivedActions()
      await store.finish()
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.hasPrefix(
        "Expected to receive tick, but received a state modification") == true)
  }

  @Test(
    "Receiving when nothing runs fails at once; waiting on a stopped clock fails at the timeout")
  func receiveNothing() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) {
        Facts()
      } withDependencies: {
        $0.clock = TestClock()
      }
      await store.receive(.tick)
      await store.send(.startTimer)
      await store.receive(.tick, timeout: .milliseconds(50))
      await store.finish(timeout: .milliseconds(50))
      store.skipInFlightEffects()
    }
    #expect(recorder.messages.count == 3)
    #expect(
      recorder.messages[0]
        == "Expected to receive tick, but nothing was received and no effects are running.")
    #expect(
      recorder.messages[1].hasPrefix(
        "Expected to receive tick, but nothing arrived within 0.05 seconds."))
    #expect(recorder.messages[1].contains("  • startTimer"))
    #expect(
      recorder.messages[2].hasPrefix(
        "Expected effects to finish within 0.05 seconds, but 1 are still running."))
    #expect(recorder.messages[2].contains("  • startTimer"))
  }

  @Test("Exhaustivity off still fails an assertion that does not hold")
  func exhaustivityOffStillAsserts() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      store.exhaustivity = .off
      await store.send(.increment) { $0.count = 5 }
    }
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("−  count: 5,\n+  count: 1,") == true)
  }

  @Test("Issues reported by the feature under test reach the test's reporters")
  func featureIssuesAreReported() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { _, _ in
          reportIssue("invalid action")
          return .none
        }
      }
      await store.send(true)
    }
    #expect(recorder.messages == ["invalid action"])
  }
}
