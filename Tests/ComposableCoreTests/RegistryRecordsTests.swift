import ComposableCore
import ComposableTesting
import Observation
import Testing

/// The store's records of its running effects (one object per effect, linked into the
/// registry's list and indexed by key), seen through what a feature can observe.
@MainActor
@Suite("Effect records")
struct RegistryRecordsTests {
  @Test("Effects under one id keep it in flight until the last one's own task is cancelled")
  func manyUnderOneID() async {
    let log = Log<String>()
    let store = Store(initialState: Sleepers.State()) { Sleepers(log: log) }
    // Each under id 7 and an id of its own.
    let tasks = (0..<50).map { store.send(.startNested(outer: 7, inner: $0)) }
    for inner in 0..<50 { await log.wait(for: "7/\(inner) started") }
    for task in tasks.dropLast() {
      task.cancel()
      #expect(store.isEffectInFlight(7), "id 7 left flight while one of its effects still runs")
    }
    tasks[49].cancel()
    #expect(!store.isEffectInFlight(7))
    for task in tasks { await task.finish(timeout: .seconds(15)) }
    #expect(log.all.filter { $0.hasSuffix("cancelled") }.count == 50)
    #expect((0..<50).allSatisfy { !store.isEffectInFlight($0) })
  }

  @Test("An effect under two ids, cancelled through its task, is out of flight under both")
  func nestedCancelledThroughTask() async {
    let log = Log<String>()
    let store = Store(initialState: Sleepers.State()) { Sleepers(log: log) }
    let nested = store.send(.startNested(outer: 1, inner: 2))
    let sibling = store.send(.start(2))
    await log.wait(for: "1/2 started")
    await log.wait(for: "2 started")
    nested.cancel()
    #expect(!store.isEffectInFlight(1))
    #expect(store.isEffectInFlight(2), "the sibling under id 2 still runs")
    await nested.finish(timeout: .seconds(15))
    sibling.cancel()
    #expect(!store.isEffectInFlight(2))
    await sibling.finish(timeout: .seconds(15))
  }

  @Test("In-flight ids notify a reader once; after that, only a reader who read again")
  func inFlightNotifiesReaders() async {
    let log = Log<String>()
    let store = Store(initialState: Sleepers.State()) { Sleepers(log: log) }
    let notified = LockIsolated(0)
    func readOnce() {
      withObservationTracking {
        _ = store.isEffectInFlight(3)
      } onChange: {
        notified.withValue { $0 += 1 }
      }
    }
    readOnce()
    let first = store.send(.start(3))
    #expect(notified.withValue { $0 } == 1)
    // Nobody read since: the change notifies nobody (and costs no notification).
    store.send(.cancel([3]))
    #expect(notified.withValue { $0 } == 1)
    await first.finish(timeout: .seconds(15))
    readOnce()
    let second = store.send(.start(3))
    #expect(notified.withValue { $0 } == 2)
    second.cancel()
    await second.finish(timeout: .seconds(15))
  }
}

/// What an effect captures: it reports its release.
private final class Capture: Sendable {
  let released: LockIsolated<Bool>
  init(released: LockIsolated<Bool>) { self.released = released }
  deinit { released.setValue(true) }
}

private struct Capturing: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, done }
  let released: LockIsolated<Bool>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      let capture = Capture(released: released)
      return .run { send in
        withExtendedLifetime(capture) {}
        await send(.done)
      }
    case .done:
      return .none
    }
  }
}

@MainActor
@Suite("Effect records: lifetimes")
struct EffectRecordLifetimeTests {
  @Test("What an effect captures is released when it ends, though its StoreTask is kept")
  func capturesReleasedAtEnd() async {
    let released = LockIsolated(false)
    let store = Store(initialState: Capturing.State()) { Capturing(released: released) }
    let task = store.send(.start)
    await task.finish(timeout: .seconds(15))
    // The effect's task ends right after its bookkeeping; give it a bounded moment.
    let deadline = ContinuousClock.now + .seconds(15)
    while !released.current, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    #expect(released.current, "the effect's captures outlived it (held by its StoreTask)")
    withExtendedLifetime(task) {}
  }
}
