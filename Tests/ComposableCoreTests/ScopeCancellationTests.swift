import ComposableCore
import ComposableTesting
import Testing

/// A child that loads until cancelled, under an id of its own type, as ported TCA code does.
private struct Loader: Reducer {
  struct State: Equatable { var name: String }
  enum Action: Sendable, Equatable { case load, stop }
  enum CancelID: Hashable, Sendable { case load(String) }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      let name = state.name
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: name) }
        .cancellable(id: CancelID.load(name))
    case .stop:
      return .cancel(id: CancelID.load(state.name))
    }
  }
}

/// Two loaders side by side under `Scope`, each with its own name in its ids.
private struct Screen: Reducer {
  struct State: Equatable {
    var left = Loader.State(name: "left")
    var right = Loader.State(name: "right")
  }
  enum Action: Sendable, Equatable {
    case left(Loader.Action)
    case right(Loader.Action)
    case cancelLeftFromParent
  }
  let log: Log<String>

  var body: some Reducer<State, Action> {
    Scope(
      state: \.left,
      action: CasePath(embed: Action.left) { if case .left(let a) = $0 { a } else { nil } }
    ) {
      Loader(log: log)
    }
    Scope(
      state: \.right,
      action: CasePath(embed: Action.right) { if case .right(let a) = $0 { a } else { nil } }
    ) {
      Loader(log: log)
    }
    Reduce { _, action in
      guard case .cancelLeftFromParent = action else { return .none }
      return .cancel(id: Loader.CancelID.load("left"))
    }
  }
}

@MainActor
@Suite("Scope shares its parent's cancellation ids")
struct ScopeCancellationTests {
  @Test("A parent cancels a scoped child's effect with the child's own id, as in TCA")
  func parentCancelsScopedChild() async {
    let log = Log<String>()
    let store = Store(initialState: Screen.State()) { Screen(log: log) }
    let running = store.send(.left(.load))
    await log.wait(for: "left started")
    #expect(store.isEffectInFlight(Loader.CancelID.load("left")))
    let left = store.scope(
      state: \.left,
      action: CasePath(embed: Screen.Action.left) { if case .left(let a) = $0 { a } else { nil } })
    #expect(left.isEffectInFlight(Loader.CancelID.load("left")))
    store.send(.cancelLeftFromParent)
    #expect(!store.isEffectInFlight(Loader.CancelID.load("left")))
    #expect(!left.isEffectInFlight(Loader.CancelID.load("left")))
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["left started", "left cancelled"])
  }

  @Test("Two scoped siblings with distinct ids never cancel each other")
  func siblingsWithDistinctIDs() async {
    let log = Log<String>()
    let store = Store(initialState: Screen.State()) { Screen(log: log) }
    let left = store.send(.left(.load))
    let right = store.send(.right(.load))
    await log.wait(for: "left started")
    await log.wait(for: "right started")
    store.send(.left(.stop))
    await left.finish(timeout: .seconds(15))
    #expect(!right.isCancelled)
    #expect(store.isEffectInFlight(Loader.CancelID.load("right")))
    store.send(.right(.stop))
    await right.finish(timeout: .seconds(15))
    #expect(log.all.filter { $0.hasSuffix("cancelled") } == ["left cancelled", "right cancelled"])
  }
}
