import ComposableCore

struct EffectsBasics {
  struct State: Equatable {
    var count = 0
    var isNumberFactRequestInFlight = false
    var numberFact: String?
  }

  enum Action {
    case decrementButtonTapped
    case decrementDelayResponse
    case incrementButtonTapped
    case numberFactButtonTapped
    case numberFactResponse(Result<String, any Error>)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.factClient) var factClient
  private enum CancelID { case delay }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        state.numberFact = nil
        // Below zero, count back up after a second.
        return state.count >= 0
          ? .none
          : .run { send in
            try await self.clock.sleep(for: .seconds(1))
            await send(.decrementDelayResponse)
          }
          .cancellable(id: CancelID.delay)

      case .decrementDelayResponse:
        if state.count < 0 {
          state.count += 1
        }
        return .none

      case .incrementButtonTapped:
        state.count += 1
        state.numberFact = nil
        return state.count >= 0
          ? .cancel(id: CancelID.delay)
          : .none

      case .numberFactButtonTapped:
        state.isNumberFactRequestInFlight = true
        state.numberFact = nil
        // Ask for a fact; the answer comes back as numberFactResponse.
        return .run { [count = state.count] send in
          await send(.numberFactResponse(Result { try await self.factClient.fetch(count) }))
        }

      case .numberFactResponse(.success(let response)):
        state.isNumberFactRequestInFlight = false
        state.numberFact = response
        return .none

      case .numberFactResponse(.failure):
        // An app would show the error here.
        state.isNumberFactRequestInFlight = false
        return .none
      }
    }
  }
}
