import ComposableCore
import ComposableTesting
import Testing

/// Search-as-you-type: each query change searches, debounced.
private struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var searched: [String] = []
  }
  enum Action: Sendable, Equatable {
    case queryChanged(String)
    case search(String)
    case cancelSearch
  }
  enum CancelID: Hashable, Sendable { case search }

  /// Passed to `debounce(clock:)` when set; otherwise the `\.clock` dependency drives it.
  var clock: (any Clock<Duration>)?

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .run { send in await send(.search(query)) }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case .search(let query):
      state.searched.append(query)
      return .none
    case .cancelSearch:
      return .cancel(id: CancelID.search)
    }
  }
}

@MainActor
@Suite("Effect.debounce")
struct DebounceTests {
  // An exhaustive test store fails a `send` made while something it received is unasserted,
  // and fails at the end for anything still unasserted or running: each `send` and the end of
  // each test below also assert that nothing fired early.

  @Test("Each new value restarts the delay; only the last one runs, once, after the quiet period")
  func restartsOnEachValue() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("ab")) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(200))  // 400 ms after "a": it did not fire
    await store.send(.queryChanged("abc")) { $0.query = "abc" }
    await clock.advance(by: .milliseconds(299))
    #expect(store.isEffectInFlight(Search.CancelID.search))
    await store.send(.queryChanged("abc"))  // nothing arrived at 299 ms; restarts the delay
    await clock.advance(by: .milliseconds(299))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.search("abc")) { $0.searched = ["abc"] }
    #expect(!store.isEffectInFlight(Search.CancelID.search))
    await clock.advance(by: .seconds(5))  // and it fires only once
  }

  @Test("A value followed by quiet runs exactly once, at the end of the delay")
  func firesOnceAfterQuietPeriod() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.queryChanged("swift")) { $0.query = "swift" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.search("swift")) { $0.searched = ["swift"] }
    await store.send(.queryChanged("swiftly")) { $0.query = "swiftly" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.search("swiftly")) { $0.searched = ["swift", "swiftly"] }
  }

  @Test(".cancel(id:) cancels a pending debounced effect")
  func cancelByID() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(100))
    await store.send(.cancelSearch)
    #expect(!store.isEffectInFlight(Search.CancelID.search))
    await clock.advance(by: .seconds(1))
    #expect(clock.sleeperCount == 0)
  }

  @Test("An explicit clock drives the delay instead of the \\.clock dependency")
  func explicitClock() async {
    let clock = TestClock()
    // No `\.clock` is installed: sleeping on the dependency would report an unimplemented clock.
    let store = TestStore(initialState: Search.State()) { Search(clock: clock) }
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.search("a")) { $0.searched = ["a"] }
  }
}
