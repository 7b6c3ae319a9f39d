import ComposableCore
import ComposableTesting
import Testing

/// An effect under several ids, and many ids cancelled in one step.
struct Sleepers: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable {
    /// Starts an effect under `outer` and `inner` at once.
    case startNested(outer: Int, inner: Int)
    case start(Int)
    case cancel([Int])
  }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startNested(let outer, let inner):
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "\(outer)/\(inner)") }
        .cancellable(id: inner)
        .cancellable(id: outer)
    case .start(let id):
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "\(id)") }
        .cancellable(id: id)
    case .cancel(let ids):
      return .cancel(ids: ids)
    }
  }
}

@MainActor
@Suite("Cancelling under several ids")
struct CancelManyTests {
  @Test("An effect under two ids is out of flight under both once either is cancelled")
  func nestedIDs() async {
    let log = Log<String>()
    let store = Store(initialState: Sleepers.State()) { Sleepers(log: log) }
    let task = store.send(.startNested(outer: 1, inner: 2))
    await log.wait(for: "1/2 started")
    #expect(store.isEffectInFlight(1) && store.isEffectInFlight(2))
    store.send(.cancel([2]))
    #expect(!store.isEffectInFlight(1), "still in flight under the id that was not cancelled")
    #expect(!store.isEffectInFlight(2))
    await task.finish(timeout: .seconds(15))
    #expect(log.all == ["1/2 started", "1/2 cancelled"])
  }

  @Test("cancel(ids:) stops every listed id at once, leaves the others, and skips idle ids")
  func manyIDs() async {
    let log = Log<String>()
    let store = Store(initialState: Sleepers.State()) { Sleepers(log: log) }
    let tasks = (0..<6).map { store.send(.start($0)) }
    // A second effect under id 0 (and under 100).
    let twin = store.send(.startNested(outer: 0, inner: 100))
    for name in ["0", "1", "2", "3", "4", "5", "0/100"] { await log.wait(for: "\(name) started") }
    store.send(.cancel([0, 2, 4, 99]))
    #expect((0..<6).map { store.isEffectInFlight($0) } == [false, true, false, true, false, true])
    #expect(!store.isEffectInFlight(100))
    for index in [0, 2, 4] { await tasks[index].finish(timeout: .seconds(15)) }
    await twin.finish(timeout: .seconds(15))
    #expect(
      log.all.filter { $0.hasSuffix("cancelled") }.sorted() == [
        "0 cancelled", "0/100 cancelled", "2 cancelled", "4 cancelled",
      ])
    store.send(.cancel([1, 3, 5]))
    for index in [1, 3, 5] { await tasks[index].finish(timeout: .seconds(15)) }
    #expect((0..<6).allSatisfy { !store.isEffectInFlight($0) })
  }
}
