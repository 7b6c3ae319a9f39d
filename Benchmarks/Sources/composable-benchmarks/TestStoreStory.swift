import ComposableCore
import ComposableTesting

/// `teststore_1k_steps_ms`: a 1,000-step exhaustive `TestStore` story: 100 rounds of eight
/// asserted sends, one send that starts an effect, and one asserted receive of the effect's
/// answer; then `finish()`. Issues go to a recording reporter; any issue fails the run.
@MainActor
func benchmarkTestStoreStory(rounds: Int, repetitions: Int) async throws -> Summary {
  try await measure(repetitions: repetitions) {
    let recorder = IssueRecorder()
    var steps = 0
    let elapsed = await time {
      steps = await withIssueReporters([recorder]) { await runStory(rounds: rounds) }
    }
    let issues = recorder.messages
    if !issues.isEmpty {
      throw BenchmarkFailure(
        "the TestStore story reported \(issues.count) issue(s):\n"
          + issues.joined(separator: "\n---\n"))
    }
    try check(steps == rounds * 10, "the TestStore story ran \(steps) of \(rounds * 10) steps")
    return elapsed.milliseconds
  }
}

/// Runs the story; returns the number of asserted steps. The store is released (and so runs
/// its end-of-test checks) before this returns.
@MainActor
private func runStory(rounds: Int) async -> Int {
  var steps = 0
  let store = TestStore(initialState: Story.State()) { Story() }
  for round in 0..<rounds {
    for increment in 1...8 {
      await store.send(.increment) { $0.count = round * 8 + increment }
      steps += 1
    }
    await store.send(.load) { $0.isLoading = true }
    let answer = (round + 1) * 8 * 2
    await store.receive(.loaded(answer)) {
      $0.isLoading = false
      $0.loaded = answer
    }
    steps += 2
  }
  await store.finish()
  return steps
}

/// A counter that loads a derived value through an effect.
struct Story: Reducer {
  struct State: Equatable {
    var count = 0
    var isLoading = false
    var loaded: Int?
  }

  enum Action: Equatable, Sendable {
    case increment
    case load
    case loaded(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .load:
      state.isLoading = true
      let count = state.count
      return .run { send in await send(.loaded(count * 2)) }
    case .loaded(let value):
      state.isLoading = false
      state.loaded = value
      return .none
    }
  }
}
