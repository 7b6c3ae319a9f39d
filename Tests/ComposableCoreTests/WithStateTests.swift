import ComposableCore
import Observation
import Testing

private struct Pair: Reducer {
  struct State: Equatable {
    var count = 0
    var child = Child()
  }
  struct Child: Equatable { var value = 0 }
  enum Action: Sendable, Equatable {
    case increment
    case child(ChildAction)
  }
  enum ChildAction: Sendable, Equatable { case bump }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .child(.bump): state.child.value += 1
    }
    return .none
  }
}

extension CasePath where Root == Pair.Action, Value == Pair.ChildAction {
  fileprivate static var child: Self {
    Self(embed: Pair.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// Whether a change is reported to observation tracking of `read`.
@MainActor
private func notifies(
  _ read: @MainActor () -> Void, when change: @MainActor () -> Void
) -> Bool {
  let notified = LockIsolated(false)
  withObservationTracking {
    read()
  } onChange: {
    notified.setValue(true)
  }
  change()
  return notified.current
}

@MainActor
@Suite("Store.withState")
struct WithStateTests {
  @Test("withState reads the current state without registering observation")
  func doesNotObserve() {
    let store = Store(initialState: Pair.State()) { Pair() }
    store.send(.increment)
    #expect(store.withState { $0.count } == 1)
    let unobserved = notifies(
      { _ = store.withState { $0.count } }, when: { store.send(.increment) })
    #expect(!unobserved)
    #expect(store.withState(\.count) == 2)
    // The control: reading `state` does register, so the check above can fail.
    let observed = notifies({ _ = store.state.count }, when: { store.send(.increment) })
    #expect(observed)
  }

  @Test("withState on a scoped store reads its up-to-date state, unobserved")
  func scopedStore() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let child = store.scope(state: \.child, action: .child)
    store.send(.child(.bump))
    #expect(child.withState { $0.value } == 1)
    let unobserved = notifies({ _ = child.withState(\.value) }, when: { store.send(.child(.bump)) })
    #expect(!unobserved)
    #expect(child.withState(\.value) == 2)
    let observed = notifies({ _ = child.state.value }, when: { store.send(.child(.bump)) })
    #expect(observed)
  }
}
