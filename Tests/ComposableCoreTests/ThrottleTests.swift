import ComposableCore
import ComposableTesting
import Testing

/// Saves a scroll position, throttled to once a second.
private struct Scroller: Reducer {
  struct State: Equatable { var saved: [Int] = [] }
  enum Action: Sendable, Equatable {
    case scrolled(Int)
    case saved(Int)
    case cancelSaving
  }
  enum CancelID: Hashable, Sendable { case save }

  let latest: Bool
  /// How long each save's own work takes, on the clock (zero: it reports at once).
  var work: Duration = .zero

  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .scrolled(let offset):
      return .run { [clock, work] send in
        if work > .zero { try await clock.sleep(for: work) }
        await send(.saved(offset))
      }
      .throttle(id: CancelID.save, for: .seconds(1), latest: latest)
    case .saved(let offset):
      state.saved.append(offset)
      return .none
    case .cancelSaving:
      return .cancel(id: CancelID.save)
    }
  }
}

@MainActor
private func makeStore(
  latest: Bool, work: Duration = .zero, clock: TestClock
) -> TestStore<Scroller.State, Scroller.Action> {
  TestStore(initialState: Scroller.State()) {
    Scroller(latest: latest, work: work)
  } withDependencies: {
    $0.clock = clock
  }
}

@MainActor
@Suite("Effect.throttle")
struct ThrottleTests {
  // An exhaustive test store fails a `send` made while something it received is unasserted,
  // and fails at the end for anything still unasserted or running: each `send` and the end of
  // each test below also assert that nothing started early.

  @Test("latest: true — the first starts at once, the newest of the window at its end")
  func latestTrue() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.saved(1)) { $0.saved = [1] }  // leading: at once
    await clock.advance(by: .milliseconds(200))
    await store.send(.scrolled(2))  // deferred to t = 1 s
    await clock.advance(by: .milliseconds(300))
    await store.send(.scrolled(3))  // replaces 2
    #expect(store.isEffectInFlight(Scroller.CancelID.save))
    await clock.advance(by: .milliseconds(499))
    await store.send(.scrolled(4))  // nothing arrived before t = 1 s; 4 replaces 3
    await clock.advance(by: .milliseconds(1))
    await store.receive(.saved(4)) { $0.saved = [1, 4] }  // t = 1 s opens the next window
    await clock.advance(by: .milliseconds(200))
    await store.send(.scrolled(5))  // deferred to t = 2 s …
    await store.send(.cancelSaving)  // … and cancelled
    await clock.advance(by: .milliseconds(100))
    await store.send(.scrolled(6))  // still inside the window that opened at 1 s: deferred
    await clock.advance(by: .milliseconds(700))
    await store.receive(.saved(6)) { $0.saved = [1, 4, 6] }
    await clock.advance(by: .milliseconds(1500))  // t = 3.5 s: the window closed at 3 s
    await store.send(.scrolled(7))
    await store.receive(.saved(7)) { $0.saved = [1, 4, 6, 7] }  // leading again
  }

  @Test("latest: false — the first of the window is kept, later ones are dropped")
  func latestFalse() async {
    let clock = TestClock()
    let store = makeStore(latest: false, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.saved(1)) { $0.saved = [1] }
    await clock.advance(by: .milliseconds(200))
    await store.send(.scrolled(2))  // deferred to t = 1 s
    await store.send(.scrolled(3))  // dropped
    await clock.advance(by: .milliseconds(500))
    await store.send(.scrolled(4))  // dropped
    await clock.advance(by: .milliseconds(300))
    await store.receive(.saved(2)) { $0.saved = [1, 2] }
    await clock.advance(by: .seconds(5))  // nothing else was kept
  }

  @Test("Separate calls more than the interval apart all start at once")
  func spacedCallsLead() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    for offset in 1...3 {
      await store.send(.scrolled(offset))
      await store.receive(.saved(offset)) { $0.saved.append(offset) }
      await clock.advance(by: .seconds(1))
    }
  }

  @Test(".cancel(id:) cancels the deferred effect; the next call after the window leads")
  func cancelByID() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.saved(1)) { $0.saved = [1] }
    await store.send(.scrolled(2))
    #expect(store.isEffectInFlight(Scroller.CancelID.save))
    await store.send(.cancelSaving)
    #expect(!store.isEffectInFlight(Scroller.CancelID.save))
    await clock.advance(by: .seconds(2))  // 2 never starts
    await store.send(.scrolled(3))
    await store.receive(.saved(3)) { $0.saved = [1, 3] }
  }

  @Test("A deferred effect cancelled before its time opens no window: the next call leads")
  func cancelledDeferredOpensNothing() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.scrolled(1))
    await store.receive(.saved(1)) { $0.saved = [1] }  // t = 0: opens [0 s, 1 s)
    await clock.advance(by: .milliseconds(500))
    await store.send(.scrolled(2))  // deferred to t = 1 s …
    await clock.advance(by: .milliseconds(200))
    await store.send(.cancelSaving)  // … and cancelled before its time
    await clock.advance(by: .milliseconds(800))
    await store.send(.scrolled(3))  // t = 1.5 s: no window is open, so it leads
    await store.receive(.saved(3)) { $0.saved = [1, 3] }
  }

  @Test("Starting a throttled effect cancels the previous one whose work still runs")
  func newerStartCancelsRunningWork() async {
    let clock = TestClock()
    let store = makeStore(latest: true, work: .seconds(5), clock: clock)
    await store.send(.scrolled(1))  // starts at t = 0, would report at t = 5 s
    await clock.advance(by: .milliseconds(500))
    await store.send(.scrolled(2))  // starts at t = 1 s, reports at t = 6 s
    await clock.advance(by: .seconds(10))
    await store.receive(.saved(2)) { $0.saved = [2] }  // 1 was cancelled when 2 started
  }

  @Test("Each store keeps its own windows")
  func windowsPerStore() async {
    let clock = TestClock()
    let first = makeStore(latest: true, clock: clock)
    let second = makeStore(latest: true, clock: clock)
    await first.send(.scrolled(1))
    await first.receive(.saved(1)) { $0.saved = [1] }
    await second.send(.scrolled(2))  // inside the first store's window, but not its own
    await second.receive(.saved(2)) { $0.saved = [2] }
  }

  @Test("A plain Store throttles the same way (on the clock it was given)")
  func plainStore() async {
    let clock = TestClock()
    let store = Store(initialState: Scroller.State()) {
      Scroller(latest: true)
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.scrolled(1)).finish(timeout: .seconds(15))
    store.send(.scrolled(2))
    let latest = store.send(.scrolled(3))
    #expect(store.saved == [1])
    // The deferred start is due at the window's close, fixed when it was deferred: advancing
    // before its task reached the clock still wakes it.
    await clock.advance(by: .seconds(1))
    await latest.finish(timeout: .seconds(15))
    #expect(store.saved == [1, 3])
  }
}
