import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

/// Two Authoring features side by side, composed so that they share the parent's
/// cancellation-id space (as `Scope` does in TCA): only their ids, which carry each one's
/// ``AuthoringID``, keep their work apart. `Effect.map` lifts actions without namespacing ids.
private struct TwoAuthorings: Reducer {
  struct State: Equatable {
    var first = Authoring.State()
    var second = Authoring.State()
  }

  enum Action: Equatable, Sendable {
    case first(Authoring.Action)
    case second(Authoring.Action)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .first(let action):
      Authoring(id: "first").reduce(into: &state.first, action: action).map(Action.first)
    case .second(let action):
      Authoring(id: "second").reduce(into: &state.second, action: action).map(Action.second)
    }
  }
}

@MainActor
@Suite("Sibling Authoring features")
struct SiblingAuthoringTests {
  @Test("Starting or cancelling one Authoring's admission never cancels its sibling's")
  func siblingsNeverCancelEachOther() async {
    let firstAnswer = PendingAnswer<AuthoringContext>()
    let secondAnswer = PendingAnswer<AuthoringContext>()
    let calls = LockIsolated(0)
    let store = TestStore(initialState: TwoAuthorings.State()) {
      TwoAuthorings()
    } withDependencies: {
      var client = AuthoringClient.storing(in: GrantStorage(), log: CallLog())
      client.requestAdmission = {
        let call = calls.withValue {
          $0 += 1
          return $0
        }
        return try await (call == 1 ? firstAnswer : secondAnswer).value()
      }
      $0[AuthoringClient.self] = client
    }
    let first = AuthoringOperation.admission(of: "first")
    let second = AuthoringOperation.admission(of: "second")

    let firstRequest = await store.send(.first(.requestAuthoring))
    await firstAnswer.arrival()
    // The sibling's request cancels admission work in flight — its own only.
    let secondRequest = await store.send(.second(.requestAuthoring))
    await secondAnswer.arrival()
    #expect(store.isEffectInFlight(first) && store.isEffectInFlight(second))

    await store.send(.second(.leaveAuthoring))
    #expect(store.isEffectInFlight(first))
    #expect(!store.isEffectInFlight(second))

    // Neither answer is applied here: the composition lifts no state modifications, so the
    // first's work is cancelled before it answers.
    await store.send(.first(.leaveAuthoring))
    firstAnswer.resolve(.alice)
    secondAnswer.resolve(.bob)
    await firstRequest.finish()
    await secondRequest.finish()
    await store.finish()
  }

  @Test("Operation ids carry their Authoring's name")
  func idsCarryTheName() {
    #expect(AuthoringOperation.admission == AuthoringOperation.admission(of: .main))
    #expect(AuthoringOperation.admission(of: "first") != AuthoringOperation.admission(of: "second"))
    #expect("\(AuthoringOperation.relinquish(of: "events"))" == "relinquish of events")
  }
}
