import ComposableCore

/// `effect_roundtrip_per_s`: `.run` effects that each send one action back, completed per
/// second. Each repetition starts `effects` effects from as many sends, then waits for all of
/// them; an effect is complete when its action was reduced and its task has ended.
@MainActor
func benchmarkEffectRoundtrip(effects: Int, repetitions: Int) async throws -> Summary {
  try await measure(repetitions: repetitions) {
    let store = Store(initialState: Echo.State()) { Echo() }
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(effects)
    let elapsed = await time {
      for _ in 0..<effects { tasks.append(store.send(.start)) }
      await finishAll(tasks)
    }
    try check(
      store.completed == effects, "round trips: \(store.completed) of \(effects) actions came back")
    return Double(effects) / elapsed.seconds
  }
}

/// `effect_roundtrip_floor_per_s` (extra): the Swift runtime's floor for the same hops with no
/// store: main-actor tasks that each call a nonisolated function which awaits one main-actor
/// call (as a store's effect task runs its operation off the main actor and `send` hops back).
@MainActor
func benchmarkEffectRoundtripFloor(effects: Int, repetitions: Int) async throws -> Summary {
  try await measure(repetitions: repetitions) {
    let counter = MainActorCounter()
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(effects)
    let elapsed = await time {
      for _ in 0..<effects { tasks.append(Task { @MainActor in await answer(to: counter) }) }
      await awaitAll(tasks)
    }
    try check(
      counter.count == effects, "round-trip floor: \(counter.count) of \(effects) came back")
    return Double(effects) / elapsed.seconds
  }
}

@MainActor
private final class MainActorCounter {
  var count = 0
  func increment() { count += 1 }
}

nonisolated private func answer(to counter: MainActorCounter) async {
  await counter.increment()
}

/// Starts an effect that answers with one action.
struct Echo: Reducer {
  struct State: Equatable {
    var started = 0
    var completed = 0
  }

  enum Action: Equatable, Sendable {
    case start
    case answered
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.started += 1
      return .run { send in await send(.answered) }
    case .answered:
      state.completed += 1
      return .none
    }
  }
}
