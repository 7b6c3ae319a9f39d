import ComposableCore
import Observation
import Testing

/// A reducer that logs every action it reduces, and chains `.send` effects.
private struct Chain: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Sendable, Equatable { case a, b, c, observed, burst, one, two, three }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append("\(action)")
    switch action {
    case .a: return .send(.b)
    case .b: return .send(.c)
    case .burst: return .merge(.send(.one), .send(.two), .concatenate(.send(.three)))
    case .c, .observed, .one, .two, .three: return .none
    }
  }
}

@MainActor
@Suite("Store ordering and notification")
struct StoreOrderingTests {
  @Test("Actions sent by effects and observers are queued and reduced in order")
  func reentrantSendOrder() {
    let store = Store(initialState: Chain.State()) { Chain() }
    var sentFromObserver = false
    withObservationTracking {
      _ = store.state
    } onChange: {
      // Runs inside the store's notification, i.e. while it is still processing: re-entrant.
      MainActor.assumeIsolated {
        if !sentFromObserver {
          sentFromObserver = true
          store.send(.observed)
        }
      }
    }
    store.send(.a)
    #expect(store.log == ["a", "b", "c", "observed"])
  }

  @Test("Several actions queued at once are reduced first in, first out")
  func queuedActionsKeepTheirOrder() {
    let store = Store(initialState: Chain.State()) { Chain() }
    var sentFromObserver = false
    withObservationTracking {
      _ = store.state
    } onChange: {
      MainActor.assumeIsolated {
        guard !sentFromObserver else { return }
        sentFromObserver = true
        store.send(.a)
        store.send(.c)
      }
    }
    store.send(.burst)
    #expect(store.log == ["burst", "one", "two", "three", "a", "c", "b", "c"])
  }

  @Test("Observers are notified once per drained batch, not once per action")
  func oneNotificationPerBatch() {
    let store = Store(initialState: Chain.State()) { Chain() }
    let notifications = ObservationCounter { _ = store.state }
    store.send(.a)  // reduces a, b and c in one batch
    #expect(store.log == ["a", "b", "c"])
    #expect(notifications.count == 1)
    store.send(.c)
    #expect(notifications.count == 2)
  }

  @Test("A scoped store's observer is not woken by actions that change only a sibling")
  func siblingObserverNotWoken() {
    let store = Store(initialState: Siblings.State()) { Siblings() }
    let left = store.scope(state: \.left, action: .left)
    let right = store.scope(state: \.right, action: .right)
    let leftWakeups = ObservationCounter { _ = left.state }
    let rootWakeups = ObservationCounter { _ = store.state }
    for _ in 0..<100 { right.send(.increment) }
    #expect(right.count == 100)
    #expect(rootWakeups.count == 100)
    #expect(leftWakeups.count == 0)
    left.send(.increment)
    #expect(left.count == 1)
    #expect(leftWakeups.count == 1)
  }

  @Test("An observed grandchild is notified through an unobserved middle store")
  func observedGrandchildThroughUnobservedParent() {
    let store = Store(initialState: Outer.State()) { Outer() }
    let middle = store.scope(state: \.siblings, action: .siblings)
    let leaf = middle.scope(state: \.left, action: .left)
    let leafWakeups = ObservationCounter { _ = leaf.state }
    store.send(.siblings(.right(.increment)))
    #expect(leafWakeups.count == 0)
    store.send(.siblings(.left(.increment)))
    #expect(leafWakeups.count == 1)
    #expect(leaf.count == 1)
    #expect(middle.right.count == 1)
  }

  @Test("Sending to a scoped store whose state is gone is reported and ignored")
  func sendToGoneScope() {
    let recorder = RecordingReporter()
    let store = Store(initialState: Optionals.State(child: .init())) { Optionals() }
    guard let child = store.scope(ifLet: \.child, action: .child) else {
      Issue.record("child store should exist while the child state does")
      return
    }
    child.send(.increment)
    #expect(child.count == 1)
    store.send(.dismiss)
    withIssueReporters([recorder]) {
      _ = child.send(.increment)
    }
    #expect(store.child == nil)
    #expect(child.count == 1)
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("scoped store whose state is gone") == true)
  }
}

struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

struct Siblings: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
  }
  enum Action: Sendable, Equatable {
    case left(Counter.Action)
    case right(Counter.Action)
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: .left) { Counter() }
    Scope(state: \.right, action: .right) { Counter() }
  }
}

extension CasePath<Siblings.Action, Counter.Action> {
  static var left: Self {
    Self(embed: Siblings.Action.left) { if case .left(let a) = $0 { a } else { nil } }
  }
  static var right: Self {
    Self(embed: Siblings.Action.right) { if case .right(let a) = $0 { a } else { nil } }
  }
}

struct Outer: Reducer {
  struct State: Equatable { var siblings = Siblings.State() }
  enum Action: Sendable, Equatable { case siblings(Siblings.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.siblings, action: .siblings) { Siblings() }
  }
}

extension CasePath<Outer.Action, Siblings.Action> {
  static var siblings: Self {
    Self(embed: Outer.Action.siblings) { if case .siblings(let a) = $0 { a } else { nil } }
  }
}

struct Optionals: Reducer {
  struct State: Equatable { var child: Counter.State? }
  enum Action: Sendable, Equatable {
    case child(Counter.Action)
    case dismiss
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .dismiss = action { state.child = nil }
      return .none
    }
    .ifLet(\.child, action: .child) { Counter() }
  }
}

extension CasePath<Optionals.Action, Counter.Action> {
  static var child: Self {
    Self(embed: Optionals.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// Collects issues reported by plain stores (ComposableTesting's IssueRecorder is for tests of
/// test stores; this suite proves the core alone).
final class RecordingReporter: IssueReporter {
  private let recorded = LockIsolated<[String]>([])
  func reportIssue(_ message: String, at location: IssueLocation) {
    recorded.withValue { $0.append(message) }
  }
  var messages: [String] { recorded.current }
}
