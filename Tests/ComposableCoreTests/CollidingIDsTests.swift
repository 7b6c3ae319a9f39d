import ComposableCore
import ComposableTesting
import Observation
import Testing

/// An id whose every value hashes alike: the store's key index finds keys by hash, so ids that
/// collide must still be told apart by equality.
private struct CollidingID: Hashable, Sendable {
  let value: Int

  func hash(into hasher: inout Hasher) {
    hasher.combine(0)
  }
}

private struct CollidingSleepers: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable {
    case start(Int)
    case startNested(outer: Int, inner: Int)
    case cancel(Int)
  }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let id):
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "\(id)") }
        .cancellable(id: CollidingID(value: id))
    case .startNested(let outer, let inner):
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "\(outer)/\(inner)") }
        .cancellable(id: CollidingID(value: inner))
        .cancellable(id: CollidingID(value: outer))
    case .cancel(let id):
      return .cancel(id: CollidingID(value: id))
    }
  }
}

@MainActor
@Suite("Ids whose hashes collide")
struct CollidingIDsTests {
  @Test("Cancelling one of several ids with one hash cancels only its own effects")
  func cancelOneOfColliding() async {
    let log = Log<String>()
    let store = Store(initialState: CollidingSleepers.State()) { CollidingSleepers(log: log) }
    let tasks = [
      store.send(.start(1)), store.send(.start(2)), store.send(.start(3)),
      store.send(.startNested(outer: 1, inner: 2)),
    ]
    for name in ["1", "2", "3", "1/2"] { await log.wait(for: "\(name) started") }
    #expect(!store.isEffectInFlight(CollidingID(value: 4)), "an id never used is not in flight")

    store.send(.cancel(2))
    #expect(!store.isEffectInFlight(CollidingID(value: 2)))
    #expect(store.isEffectInFlight(CollidingID(value: 1)), "the effect under 1 alone still runs")
    #expect(store.isEffectInFlight(CollidingID(value: 3)))
    await tasks[1].finish(timeout: .seconds(15))
    await tasks[3].finish(timeout: .seconds(15))
    let cancelled = log.all.filter { $0.hasSuffix("cancelled") }.sorted()
    #expect(cancelled == ["1/2 cancelled", "2 cancelled"])

    // Through its task: the effect leaves flight under its id only.
    tasks[0].cancel()
    #expect(!store.isEffectInFlight(CollidingID(value: 1)))
    #expect(store.isEffectInFlight(CollidingID(value: 3)))
    await tasks[0].finish(timeout: .seconds(15))

    store.send(.cancel(3))
    #expect(!store.isEffectInFlight(CollidingID(value: 3)))
    await tasks[2].finish(timeout: .seconds(15))
    #expect(log.all.filter { $0.hasSuffix("cancelled") }.count == 4)
  }

  @Test("An id stays in flight while any of its effects runs, among colliding ids")
  func lastEffectOfAnIDAmongColliding() async {
    let log = Log<String>()
    let store = Store(initialState: CollidingSleepers.State()) { CollidingSleepers(log: log) }
    let nested = store.send(.startNested(outer: 5, inner: 6))
    let alone = store.send(.start(6))
    await log.wait(for: "5/6 started")
    await log.wait(for: "6 started")
    store.send(.cancel(5))
    #expect(!store.isEffectInFlight(CollidingID(value: 5)))
    #expect(store.isEffectInFlight(CollidingID(value: 6)), "the effect under 6 alone still runs")
    await nested.finish(timeout: .seconds(15))
    #expect(store.isEffectInFlight(CollidingID(value: 6)))
    alone.cancel()
    #expect(!store.isEffectInFlight(CollidingID(value: 6)))
    await alone.finish(timeout: .seconds(15))
  }

  @Test("An effect under two colliding ids tells an observer of the second id that it started")
  func observerOfSecondCollidingID() async {
    let log = Log<String>()
    let store = Store(initialState: CollidingSleepers.State()) { CollidingSleepers(log: log) }
    let first = store.send(.start(5))
    await log.wait(for: "5 started")
    let notified = LockIsolated(0)
    withObservationTracking {
      _ = store.isEffectInFlight(CollidingID(value: 6))
    } onChange: {
      notified.withValue { $0 += 1 }
    }
    // Registered under 5 (already in flight), then under 6, whose hash is 5's.
    let nested = store.send(.startNested(outer: 5, inner: 6))
    #expect(store.isEffectInFlight(CollidingID(value: 6)))
    #expect(notified.withValue { $0 } == 1, "id 6 came into flight and its observer was not told")
    first.cancel()
    nested.cancel()
    await first.finish(timeout: .seconds(15))
    await nested.finish(timeout: .seconds(15))
  }
}
