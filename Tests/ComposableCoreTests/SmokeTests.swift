import ComposableCore
import ComposableTesting
import Testing

struct Counter: Reducer {
  struct State: Equatable { var count = 0; var fact: String? }
  enum Action: Equatable, Sendable { case increment, factTapped, factLoaded(String) }
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .factTapped:
      let count = state.count
      return .run(modifying: State.self) { send, state in
        try await clock.sleep(for: .seconds(1))
        await state.modify { $0.fact = "\(count) is a number" }
        await send(.factLoaded("done"))
      }
    case .factLoaded:
      return .none
    }
  }
}

@MainActor @Test func smoke() async {
  let clock = TestClock()
  let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: { $0.clock = clock }
  await store.send(.increment) { $0.count = 1 }
  await store.send(.factTapped)
  await clock.advance(by: .seconds(1))
  await store.receiveModification { $0.fact = "1 is a number" }
  await store.receive(.factLoaded("done"))
}

@MainActor @Test func failingDiff() async {
  let recorder = IssueRecorder()
  await withIssueReporters([recorder]) {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.increment) { $0.count = 2 }
  }
  print(recorder.messages.joined(separator: "\n---\n"))
  #expect(recorder.messages.count == 1)
}
