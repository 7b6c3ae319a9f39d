import ComposableCore

/// The feature the test-store tests drive: a counter that loads a fact after a delay.
struct Facts: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var loading = false
  }

  enum Action: Sendable, Equatable {
    case increment
    case noop
    case load
    case loadTwice
    case factLoaded(String)
    case startTimer
    case tick
    case stopTimer
  }

  enum CancelID: Hashable, Sendable { case timer }

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .load:
      state.loading = true
      let count = state.count
      return .run(modifying: State.self) { send, state in
        try await clock.sleep(for: .seconds(1))
        await state.modify { $0.loading = false }
        await send(.factLoaded("\(count) is a number"))
      }
    case .loadTwice:
      return .run(modifying: State.self) { send, state in
        await state.modify { $0.count += 10 }
        await send(.factLoaded("first"))
        await state.modify { $0.count += 100 }
      }
    case .factLoaded(let fact):
      state.fact = fact
      return .none
    case .startTimer:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .tick:
      state.count += 1
      return .none
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    }
  }
}

/// A wait that ignores cancellation: it ends only when the test opens the gate (the shape of
/// work that does not cooperate with cancellation).
final class UncooperativeGate: Sendable {
  private let state = LockIsolated<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  var isOpen: Bool { state.withValue { $0.open } }

  func wait() async {
    await withCheckedContinuation { continuation in
      let open = state.withValue { state -> Bool in
        if !state.open { state.waiters.append(continuation) }
        return state.open
      }
      if open { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withValue { state -> [CheckedContinuation<Void, Never>] in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
