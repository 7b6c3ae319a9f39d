import ComposableCore
import ComposableTesting
import Testing

@MainActor
@Suite("TestStore stories that pass")
struct TestStoreStoryTests {
  @Test("Effects' modifications and actions are asserted in the order they happened")
  func modificationsAndActionsInOrder() async {
    let store = TestStore(initialState: Facts.State()) { Facts() }
    await store.send(.loadTwice)
    await store.receiveModification { $0.count = 10 }
    await store.receive(.factLoaded("first")) { $0.fact = "first" }
    await store.receiveModification { $0.count = 110 }
  }

  @Test("Time moves only when the test clock advances")
  func testClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Facts.State()) {
      Facts()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.load) { $0.loading = true }
    await clock.advance(by: .milliseconds(999))
    #expect(store.state.loading)
    await clock.advance(by: .milliseconds(1))
    await store.receiveModification { $0.loading = false }
    await store.receive(.factLoaded("1 is a number")) { $0.fact = "1 is a number" }
  }

  @Test("A timer fires once per advanced second and stops when cancelled")
  func timer() async {
    let clock = TestClock()
    let store = TestStore(initialState: Facts.State()) {
      Facts()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.startTimer)
    #expect(store.isEffectInFlight(Facts.CancelID.timer))
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.count = 1 }
    await store.receive(.tick) { $0.count = 2 }
    await store.receive(.tick) { $0.count = 3 }
    await store.send(.stopTimer)
    await store.finish()
    #expect(!store.isEffectInFlight(Facts.CancelID.timer))
  }

  @Test("Receive by case path and by predicate")
  func receiveByCasePathAndPredicate() async {
    let store = TestStore(initialState: Facts.State()) { Facts() }
    await store.send(.loadTwice)
    await store.receiveModification { $0.count = 10 }
    await store.receive(.factLoaded) { $0.fact = "first" }
    await store.receiveModification { $0.count = 110 }
    await store.send(.loadTwice)
    await store.receiveModification { $0.count = 120 }
    await store.receive(matching: { $0 == .factLoaded("first") })
    await store.receiveModification { $0.count = 220 }
  }

  @Test("With exhaustivity off, only what the test asserts is checked")
  func exhaustivityOff() async {
    let store = TestStore(initialState: Facts.State()) { Facts() }
    store.exhaustivity = .off
    await store.send(.increment)
    await store.send(.loadTwice)
    await store.receive(.factLoaded("first")) { $0.fact = "first" }
    await store.finish()
    #expect(store.state.count == 111)
  }
}

extension CasePath<Facts.Action, String> {
  static var factLoaded: Self {
    Self(embed: Facts.Action.factLoaded) {
      if case .factLoaded(let fact) = $0 { fact } else { nil }
    }
  }
}

/// An effect that notices cancellation only when its wait ends.
private struct Stubborn: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, stop }
  let gate: UncooperativeGate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [gate] _ in await gate.wait() }
        .cancellable(id: "work")
    case .stop:
      return .cancel(id: "work")
    }
  }
}

@MainActor
@Test("TestStore.finish() waits for a cancelled effect until it has stopped")
func finishWaitsForCancelledEffects() async {
  let gate = UncooperativeGate()
  let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
  await store.send(.start)
  await store.send(.stop)
  #expect(!store.isEffectInFlight("work"))
  Task {
    try? await Task.sleep(for: .milliseconds(20))
    gate.open()
  }
  await store.finish()
  #expect(gate.isOpen)
}
