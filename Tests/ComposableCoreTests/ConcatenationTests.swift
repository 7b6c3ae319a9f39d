import ComposableCore
import ComposableTesting
import Observation
import Testing

/// A concatenation whose first step sends an action that starts a poll which never ends.
private struct Poll: Reducer {
  struct State: Equatable { var steps: [String] = [] }
  enum Action: Sendable, Equatable {
    case go, startPolling
    case step(String)
    case stopPolling
  }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .go:
      return .concatenate(
        .run { send in await send(.startPolling) },
        .send(.step("second")),
        .run { send in await send(.step("third")) }
      )
    case .startPolling:
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "poll") }
        .cancellable(id: "poll")
    case .step(let name):
      state.steps.append(name)
      return .none
    case .stopPolling:
      return .cancel(id: "poll")
    }
  }
}

@MainActor
@Suite("Effect.concatenate")
struct ConcatenationTests {
  @Test("Each step ends with its own operation, not with effects of actions it sent (as TCA)")
  func stepsDoNotWaitForSentActionsEffects() async {
    let log = Log<String>()
    let store = Store(initialState: Poll.State()) { Poll(log: log) }
    let task = store.send(.go)
    await log.wait(for: "poll started")
    // The poll runs on, yet the later steps ran.
    await waitUntil { store.steps == ["second", "third"] }
    #expect(store.steps == ["second", "third"])
    #expect(store.isEffectInFlight("poll"))
    // The send's task still covers the poll, which its actions started.
    store.send(.stopPolling)
    await task.finish(timeout: .seconds(15))
    #expect(log.all == ["poll started", "poll cancelled"])
  }
}

/// Waits (bounded, signalled by the store's observation) until `condition` holds.
@MainActor
private func waitUntil(
  timeout: Duration = .seconds(15), _ condition: @escaping @MainActor () -> Bool
) async {
  let deadline = ContinuousClock.now.advanced(by: timeout)
  while !condition(), ContinuousClock.now < deadline {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumed = LockIsolated(false)
      let resume: @Sendable () -> Void = {
        if resumed.withValue({ done in
          defer { done = true }
          return !done
        }) {
          continuation.resume()
        }
      }
      let holds = withObservationTracking {
        condition()
      } onChange: {
        resume()
      }
      if holds { resume() }
      Task {
        try? await Task.sleep(until: deadline, clock: .continuous)
        resume()
      }
    }
  }
}
