import ComposableCore
import ComposableTesting
import Observation
import Testing

/// Three levels: the root logs every action it reduces, in order; the leaf answers `.ping`
/// with a `.pong` sent back through the levels.
private struct Journal: Reducer {
  struct State: Equatable {
    var log: [String] = []
    var middle = Middle.State()
  }
  enum Action: Sendable, Equatable {
    case root(String)
    case middle(Middle.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      state.log.append(action.label)
      return .none
    }
    Scope(state: \.middle, action: .middle) { Middle() }
  }
}

extension Journal.Action {
  fileprivate var label: String {
    switch self {
    case .root(let name): "root \(name)"
    case .middle(.mark(let name)): "mark \(name)"
    case .middle(.leaf(.ping(let number))): "ping \(number)"
    case .middle(.leaf(.pong(let number))): "pong \(number)"
    }
  }
}

private struct Middle: Reducer {
  struct State: Equatable {
    var leaf = Leaf.State()
    var other = 0
  }
  enum Action: Sendable, Equatable {
    case mark(String)
    case leaf(Leaf.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .mark = action { state.other += 1 }
      return .none
    }
    Scope(state: \.leaf, action: .leaf) { Leaf() }
  }
}

private struct Leaf: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable {
    case ping(Int)
    case pong(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    if case .ping(let number) = action { return .send(.pong(number)) }
    return .none
  }
}

extension CasePath<Journal.Action, Middle.Action> {
  fileprivate static var middle: Self {
    Self(embed: { .middle($0) }) { if case .middle(let a) = $0 { a } else { nil } }
  }
}

extension CasePath<Middle.Action, Leaf.Action> {
  fileprivate static var leaf: Self {
    Self(embed: { .leaf($0) }) { if case .leaf(let a) = $0 { a } else { nil } }
  }
}

/// A child under `ifLet` whose effect runs until cancelled, under an id of its own.
private struct Host: Reducer {
  struct State: Equatable { var worker: Worker.State? = Worker.State() }
  enum Action: Sendable, Equatable {
    case worker(Worker.Action)
    case dismiss
  }
  let log: Log<String>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .dismiss = action { state.worker = nil }
      return .none
    }
    .ifLet(\.worker, action: .worker) { Worker(log: log) }
  }
}

private struct Worker: Reducer {
  struct State: Equatable { var started = 0 }
  enum Action: Sendable, Equatable { case start }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.started += 1
    return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "worker") }
      .cancellable(id: "work")
  }
}

extension CasePath<Host.Action, Worker.Action> {
  fileprivate static var worker: Self {
    Self(embed: { .worker($0) }) { if case .worker(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite("Scoped stores send to the root and notify on their own changes")
struct ScopedStoreTests {
  @Test("Sends through scoped stores of any depth reach the root in the order they were sent")
  func sendsReachTheRootInOrder() {
    let store = Store(initialState: Journal.State()) { Journal() }
    let middle = store.scope(state: \.middle, action: .middle)
    let leaf = middle.scope(state: \.leaf, action: .leaf)
    leaf.send(.ping(1))
    store.send(.root("a"))
    middle.send(.mark("b"))
    leaf.send(.ping(2))
    #expect(store.log == ["ping 1", "pong 1", "root a", "mark b", "ping 2", "pong 2"])
    #expect(leaf.count == 4)
    #expect(middle.other == 1)
  }

  @Test("A send from an observer of a scoped store is reduced after the batch that woke it")
  func reentrantScopedSend() {
    let store = Store(initialState: Journal.State()) { Journal() }
    let middle = store.scope(state: \.middle, action: .middle)
    let leaf = middle.scope(state: \.leaf, action: .leaf)
    var sent = false
    withObservationTracking {
      _ = leaf.state
    } onChange: {
      MainActor.assumeIsolated {
        guard !sent else { return }
        sent = true
        middle.send(.mark("from observer"))
      }
    }
    leaf.send(.ping(1))
    #expect(store.log == ["ping 1", "pong 1", "mark from observer"])
  }

  @Test("An observed scoped store read during the root's notification still notifies its change")
  func changeSeenDuringRootNotification() {
    let store = Store(initialState: Journal.State()) { Journal() }
    let leaf = store.scope(state: \.middle, action: .middle).scope(state: \.leaf, action: .leaf)
    let leafWakeups = ObservationCounter { _ = leaf.state }
    // The root's observer reads the leaf while the root notifies, before the leaf's turn.
    let rootWakeups = ObservationCounter {
      _ = store.state
      _ = leaf.withState(\.count)
    }
    store.send(.middle(.leaf(.pong(0))))
    #expect(rootWakeups.count == 1)
    #expect(leafWakeups.count == 1)
    // A change elsewhere wakes the root's observer only.
    store.send(.root("x"))
    #expect(rootWakeups.count == 2)
    #expect(leafWakeups.count == 1)
  }

  @Test("A scoped store first read after changes does not notify for them")
  func firstReadIsNotAChange() {
    let store = Store(initialState: Journal.State()) { Journal() }
    let leaf = store.scope(state: \.middle, action: .middle).scope(state: \.leaf, action: .leaf)
    store.send(.middle(.leaf(.pong(0))))
    let wakeups = ObservationCounter { _ = leaf.state }
    #expect(leaf.count == 1)
    store.send(.root("elsewhere"))
    #expect(wakeups.count == 0)
    leaf.send(.pong(1))
    #expect(wakeups.count == 1)
  }

  @Test("A scoped store keeps working after the store it was scoped from is released")
  func outlivesItsParent() {
    let store = Store(initialState: Journal.State()) { Journal() }
    weak var releasedMiddle: Store<Middle.State, Middle.Action>?
    let leaf: Store<Leaf.State, Leaf.Action>
    do {
      let middle = store.scope(state: \.middle, action: .middle)
      releasedMiddle = middle
      leaf = middle.scope(state: \.leaf, action: .leaf)
    }
    #expect(releasedMiddle == nil)
    let wakeups = ObservationCounter { _ = leaf.state }
    leaf.send(.pong(1))
    #expect(leaf.count == 1)
    #expect(store.middle.leaf.count == 1)
    #expect(wakeups.count == 1)
  }

  @Test("The root refreshes each observed scoped store once per batch; unobserved ones not at all")
  func observedScopesAreListedOnce() {
    let store = Store(initialState: Siblings.State()) { Siblings() }
    let left = store.scope(state: \.left, action: .left)
    let right = store.scope(state: \.right, action: .right)
    #expect(store.observedScopedStoreCount == 0)
    let leftWakeups = ObservationCounter { _ = left.state }
    let rightWakeups = ObservationCounter { _ = right.state }
    #expect(store.observedScopedStoreCount == 2)
    for _ in 0..<1_000 { right.send(.increment) }
    #expect(rightWakeups.count == 1_000)
    #expect(leftWakeups.count == 0)
    // Notified and registered again 1,000 times, each store is still listed once.
    #expect(store.observedScopedStoreCount == 2)
    // A store observed once and not read again after its notification leaves the list; so
    // does an observed store that is released.
    let once = store.scope(state: \.self, action: .`self`)
    withObservationTracking {
      _ = once.state
    } onChange: {
    }
    do {
      let released = store.scope(state: \.right, action: .left)
      withObservationTracking {
        _ = released.state
      } onChange: {
      }
    }
    #expect(store.observedScopedStoreCount == 4)
    right.send(.increment)
    #expect(store.observedScopedStoreCount == 2)
    #expect(once.right.count == 1_001)
  }

  @Test("Effects run while a scoped store is held after the root store is released, not after")
  func effectsLiveAsLongAsTheTree() async {
    let log = Log<String>()
    var worker: Store<Worker.State, Worker.Action>?
    do {
      let store = Store(initialState: Host.State()) { Host(log: log) }
      worker = store.scope(ifLet: \.worker, action: .worker)
    }
    guard let running = worker?.send(.start) else {
      Issue.record("the worker store should exist while its state does")
      return
    }
    await log.wait(for: "worker started")
    #expect(worker?.isEffectInFlight("work") == true)
    #expect(log.all == ["worker started"])
    worker = nil
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["worker started", "worker cancelled"])
  }

  @Test("A store scoped below an optional scope that disappeared reports sends, as that one does")
  func childOfGoneScopeReports() {
    let recorder = RecordingReporter()
    let store = Store(initialState: Host.State()) { Host(log: Log()) }
    guard let worker = store.scope(ifLet: \.worker, action: .worker) else {
      Issue.record("the worker store should exist while its state does")
      return
    }
    let below = worker.scope(state: \.self, action: .`self`)
    store.send(.dismiss)
    withIssueReporters([recorder]) {
      _ = below.send(.start)
      _ = worker.send(.start)
    }
    #expect(recorder.messages.count == 2)
    #expect(recorder.messages.allSatisfy { $0.contains("scoped store whose state is gone") })
    #expect(below.started == 0)
    // Scoped from the gone store now, a store is gone from the start.
    let late = worker.scope(state: \.self, action: .`self`)
    withIssueReporters([recorder]) { _ = late.send(.start) }
    #expect(recorder.messages.count == 3)
    #expect(recorder.messages.allSatisfy { $0.contains("scoped store whose state is gone") })
  }

  @Test("An optional scope sees its child's effect ids, namespaced by ifLet; the root does not")
  func optionalScopeSeesNamespacedIDs() async {
    let log = Log<String>()
    let store = Store(initialState: Host.State()) { Host(log: log) }
    guard let worker = store.scope(ifLet: \.worker, action: .worker) else {
      Issue.record("the worker store should exist while its state does")
      return
    }
    let running = worker.send(.start)
    await log.wait(for: "worker started")
    #expect(worker.isEffectInFlight("work"))
    #expect(!store.isEffectInFlight("work"))
    store.send(.dismiss)
    #expect(!worker.isEffectInFlight("work"))
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["worker started", "worker cancelled"])
  }
}
