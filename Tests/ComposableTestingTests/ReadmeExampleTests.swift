import ComposableCore
import ComposableTesting
import Testing

// The README's worked example, kept compiling and passing.

struct NumberFact: Reducer {
  struct State: Equatable {
    var number = 0
    var fact: String?
  }
  enum Action: Sendable, Equatable {
    case increment
    case factButtonTapped
  }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.number += 1
      return .none
    case .factButtonTapped:
      let number = state.number
      return .run(modifying: State.self) { send, state in
        try await clock.sleep(for: .seconds(1))
        await state.modify { $0.fact = "\(number) is a good number." }
      }
    }
  }
}

@MainActor @Test func factArrivesAfterOneSecond() async {
  let clock = TestClock()
  let store = TestStore(initialState: NumberFact.State()) {
    NumberFact()
  } withDependencies: {
    $0.clock = clock
  }

  await store.send(.increment) { $0.number = 1 }
  await store.send(.factButtonTapped)
  await clock.advance(by: .seconds(1))
  await store.receiveModification { $0.fact = "1 is a good number." }
}
