import ComposableCore
import Observation

/// The feature of the send benchmarks: one synchronous action, no effect.
struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var step = 1
    var title = "Counter"
  }

  enum Action: Equatable, Sendable {
    case increment
    case decrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += state.step
    case .decrement: state.count -= state.step
    }
    return .none
  }
}

/// The floor: the least an observable store of `Counter` must do. A hand-written @MainActor
/// Observable class with a manual `ObservationRegistrar`, holding the same state, running the
/// same reducer function, and writing the state once per send (one `withMutation`).
@MainActor
final class FloorCounter: Observable {
  private let registrar = ObservationRegistrar()
  private let reducer = Counter()
  private var storage: Counter.State

  init(initialState: Counter.State) {
    self.storage = initialState
  }

  var state: Counter.State {
    registrar.access(self, keyPath: \.state)
    return storage
  }

  func send(_ action: Counter.Action) {
    registrar.withMutation(of: self, keyPath: \.state) {
      _ = reducer.reduce(into: &storage, action: action)
    }
  }
}
