import ComposableCore
import ComposableTesting
import Testing

/// A repeating timer, and work that ignores cancellation.
private struct Ticker: Reducer {
  struct State: Equatable { var ticks = 0 }
  enum Action: Sendable, Equatable { case start, tick, stubborn, stop }
  let gate: UncooperativeGate
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    case .stubborn:
      return .run { [gate] _ in await gate.wait() }.cancellable(id: "stubborn")
    case .stop:
      return .cancel(id: "stubborn")
    }
  }
}

/// A repeating timer of one millisecond beside a task that sleeps five minutes.
private struct FastTimerAndFarSleeper: Reducer {
  enum Action: Sendable, Equatable { case start, tick }
  @Dependency(\.clock) var clock

  func reduce(into ticks: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .merge(
        .run { send in
          while true {
            try await clock.sleep(for: .milliseconds(1))
            await send(.tick)
          }
        },
        .run { _ in try await clock.sleep(for: .seconds(300)) }
      )
    case .tick:
      ticks += 1
      return .none
    }
  }
}

@MainActor
@Suite("Every wait of the test tools is bounded")
struct BoundedWaitTests {
  @Test("send(…).finish() on a never-ending effect fails at its timeout, naming the action")
  func taskFinishIsBounded() async {
    let recorder = IssueRecorder()
    let clock = TestClock()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Ticker.State()) {
        Ticker(gate: UncooperativeGate())
      } withDependencies: {
        $0.clock = clock
      }
      let task = await store.send(.start)
      await task.finish(timeout: .milliseconds(100))
      #expect(task.isCancelled)
    }
    #expect(recorder.messages.count == 1, "\(recorder.messages)")
    let message = recorder.messages.first ?? ""
    #expect(
      message.hasPrefix(
        "Expected the action's effects to finish within 0.1 seconds, but they are still running"))
    #expect(message.contains("  • start"))
  }

  @Test("TestClock.run() with a repeating timer fails at its timeout instead of running forever")
  func clockRunIsBounded() async {
    let recorder = IssueRecorder()
    let clock = TestClock()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Ticker.State()) {
        Ticker(gate: UncooperativeGate())
      } withDependencies: {
        $0.clock = clock
      }
      store.exhaustivity = .off
      await store.send(.start)
      await clock.run(timeout: .milliseconds(100))
      store.skipInFlightEffects()
    }
    #expect(recorder.messages.count == 1, "\(recorder.messages)")
    #expect(
      recorder.messages.first?.hasPrefix("TestClock.run() did not end within 0.1 seconds") == true)
    #expect(recorder.messages.first?.contains("a task due at +1.0 seconds") == true)
  }

  @Test("TestClock.run() ends at its bound even when a fast timer stands before a far sleeper")
  func clockRunIsBoundedBeforeAFarSleeper() async {
    let recorder = IssueRecorder()
    let clock = TestClock()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: 0) {
        FastTimerAndFarSleeper()
      } withDependencies: {
        $0.clock = clock
      }
      store.exhaustivity = .off
      await store.send(.start)
      await clock.run(timeout: .milliseconds(200))
      store.skipInFlightEffects()
    }
    #expect(recorder.messages.count == 1, "\(recorder.messages)")
    #expect(
      recorder.messages.first?.hasPrefix("TestClock.run() did not end within 0.2 seconds") == true)
    // It stopped at its bound: it did not first step the timer through five minutes of ticks
    // on the way to the far sleeper.
    #expect(clock.now.offset < .seconds(300))
    #expect(recorder.messages.first?.contains("a task due at +") == true)
  }

  @Test("A plain store's StoreTask gets a bounded finish too")
  func storeTaskFinishIsBounded() async {
    let recorder = IssueRecorder()
    let gate = UncooperativeGate()
    let store = Store(initialState: Ticker.State()) { Ticker(gate: gate) }
    let task = store.send(.stubborn)
    await withIssueReporters([recorder]) {
      await task.finish(timeout: .milliseconds(50))
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.hasPrefix(
        "Expected the action's effects to finish within 0.05 seconds") == true)
    gate.open()
  }

  @Test("A timeout names effects that were cancelled but have not stopped, truthfully")
  func timeoutNamesCancelledEffects() async {
    let recorder = IssueRecorder()
    let gate = UncooperativeGate()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Ticker.State()) { Ticker(gate: gate) }
      await store.send(.stubborn)
      await store.send(.stop)
      await store.finish(timeout: .milliseconds(50))
      gate.open()
      await store.finish()
    }
    #expect(recorder.messages.count == 1, "\(recorder.messages)")
    let message = recorder.messages.first ?? ""
    #expect(
      message.hasPrefix("Expected effects to finish within 0.05 seconds, but 1 are still running."))
    #expect(message.contains("Effects cancelled but not stopped yet"))
    #expect(message.contains("  • stubborn"))
    #expect(!message.contains("No effect's work is still running"))
  }

  @Test("An effect that never suspends fails send at the timeout, naming it, instead of hanging")
  func busyEffectIsBounded() async {
    let recorder = IssueRecorder()
    let stop = LockIsolated(false)
    await withIssueReporters([recorder]) {
      let store = TestStore(
        initialState: 0,
        reducer: {
          Reduce<Int, Bool> { _, _ in
            .run { _ in
              // Computes until the test says stop (bounded, so a slow test never spins on).
              let end = ContinuousClock.now.advanced(by: .seconds(20))
              var spins = 0
              while !stop.current, ContinuousClock.now < end { spins &+= 1 }
            }
          }
        }, timeout: .milliseconds(100))
      await store.send(true)
      stop.setValue(true)
      // Only the send's bound is under test: the effect's end gets a bound of its own, long
      // enough for a loaded machine (100 ms was missed once in ten loaded suite runs).
      await store.finish(timeout: .seconds(15))
    }
    #expect(recorder.messages.count == 1, "\(recorder.messages)")
    #expect(
      recorder.messages.first?.hasPrefix(
        "Expected the store's effects to suspend (sleep, await something, or finish) within 0.1 seconds, but one kept running."
      ) == true)
    #expect(recorder.messages.first?.contains("  • true") == true)
  }
}

/// Holds the last reference to a test store, so a test can drop it on another thread.
private final class LastReference<Value: Sendable>: @unchecked Sendable {
  private let value: LockIsolated<Value?>
  init(_ value: Value) { self.value = LockIsolated(value) }
  func drop() { value.setValue(nil) }
}

@MainActor
@Test("A test store released off the main actor still reports what it left running, without a race")
func testStoreReleasedOffMain() async {
  let recorder = IssueRecorder()
  let gate = UncooperativeGate()
  var store: TestStore<Ticker.State, Ticker.Action>? = withIssueReporters([recorder]) {
    TestStore(initialState: Ticker.State()) { Ticker(gate: gate) }
  }
  await withIssueReporters([recorder]) { _ = await store?.send(.stubborn) }
  let last = store.map(LastReference.init)
  store = nil
  // The deinitializer runs on a detached task's thread: it reads and cancels the effects.
  await Task.detached { last?.drop() }.value
  gate.open()
  #expect(recorder.messages.count == 1, "\(recorder.messages)")
  #expect(
    recorder.messages.first?.hasPrefix(
      "1 effect(s) were still running when the test ended, started by:\n  • stubborn") == true)
}
