import ComposableCore
import ComposableTesting
import Testing

enum Work: Hashable, Sendable { case long }

/// A feature whose effects the tests control with gates and logs.
struct Jobs: Reducer {
  struct State: Equatable { var results: [String] = [] }
  enum Action: Sendable, Equatable {
    case startTwo
    case chained
    case startLong(String, cancelInFlight: Bool)
    case stopLong
    case finished(String)
    case cancelUnknown
    case startGated
  }
  let gate: Gate
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTwo:
      return .merge(
        .run { [gate, log] send in
          await gate.wait()
          log.append("first done")
        },
        .run { [log] send in
          await Task.yield()
          log.append("second done")
        },
        .send(.chained)
      )
    case .chained:
      return .run { [gate, log] _ in
        await gate.wait()
        log.append("chained done")
      }
    case .startLong(let name, let cancelInFlight):
      return .run { [log] send in
        await sleepUntilCancelled(recording: log, as: name)
        await send(.finished(name))  // dropped: the effect was cancelled
      }
      .cancellable(id: Work.long, cancelInFlight: cancelInFlight)
    case .stopLong:
      return .cancel(id: Work.long)
    case .finished(let name):
      state.results.append(name)
      return .none
    case .cancelUnknown:
      return .cancel(id: "nothing runs under this id")
    case .startGated:
      return .run { [gate] _ in await gate.wait() }.cancellable(id: Work.long)
    }
  }
}

@MainActor
@Suite("Effects and cancellation")
struct EffectTests {
  @Test("StoreTask.finish() awaits every effect of the action, including .send chains")
  func finishAwaitsEveryEffect() async {
    let gate = Gate()
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: gate, log: log) }
    let task = store.send(.startTwo)
    Task { gate.release() }
    await task.finish(timeout: .seconds(15))
    #expect(Set(log.all) == ["first done", "second done", "chained done"])
  }

  @Test("StoreTask.finish() also awaits effects of actions the action's effects send back")
  func finishAwaitsTransitiveEffects() async {
    let log = Log<String>()
    let store = Store(initialState: Relay.State()) { Relay(log: log) }
    await store.send(.start).finish(timeout: .seconds(15))
    #expect(log.all == ["relayed", "second effect done"])
  }

  @Test("Cancelling by id stops the effect, drops its late send and clears in-flight status")
  func cancelByID() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let task = store.send(.startLong("one", cancelInFlight: false))
    #expect(store.isEffectInFlight(Work.long))
    await log.wait(for: "one started")
    store.send(.stopLong)
    #expect(!store.isEffectInFlight(Work.long))
    await task.finish(timeout: .seconds(15))
    #expect(log.all == ["one started", "one cancelled"])
    #expect(store.results == [])
  }

  @Test("Whether an id is in flight is observable")
  func inFlightIsObservable() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let changes = ObservationCounter { _ = store.isEffectInFlight(Work.long) }
    let task = store.send(.startLong("one", cancelInFlight: false))
    #expect(changes.count == 1)
    store.send(.stopLong)
    #expect(changes.count == 2)
    await task.finish(timeout: .seconds(15))
  }

  @Test("An id's effect that returns by itself leaves flight; observers hear of it at once")
  func inFlightEndIsObservable() async {
    let gate = Gate()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: gate, log: Log()) }
    let changes = ObservationCounter { _ = store.isEffectInFlight(Work.long) }
    let task = store.send(.startGated)
    #expect(changes.count == 1)
    gate.release()
    // The effect ends on the main actor, in the job that completes its task: by the time its
    // end is awaited, the id is out of flight and observers have heard of it.
    await task.finish(timeout: .seconds(15))
    #expect(!store.isEffectInFlight(Work.long))
    #expect(changes.count == 2)
  }

  @Test("An effect returning off the main actor leaves flight on it: reads in one turn agree")
  func inFlightChangesOnTheMainActor() async {
    let gate = Gate()
    let log = Log<String>()
    let store = Store(initialState: Returning.State()) { Returning(gate: gate, log: log) }
    let task = store.send(.start)
    await log.wait(for: "waiting")
    // One main-actor turn: the operation resumes on another thread and returns, which this
    // turn sees (for at most 15 seconds); 20 ms later it reads twice. An effect that left
    // flight where its operation returned would be out of flight by then.
    gate.release()
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(15))
    while !log.all.contains("returning"), clock.now < deadline {}
    #expect(log.all.contains("returning"), "the operation did not return within 15 seconds")
    let settled = clock.now.advanced(by: .milliseconds(20))
    while clock.now < settled {}
    #expect(store.isEffectInFlight("work"))
    #expect(store.isEffectInFlight("work"))
    await task.finish(timeout: .seconds(15))
    #expect(!store.isEffectInFlight("work"))
  }

  @Test("An effect cancelled before its task started never runs")
  func cancelledBeforeStartNeverRuns() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    // Started and cancelled in the same main-actor turn: the task has not begun.
    let task = store.send(.startLong("one", cancelInFlight: false))
    store.send(.stopLong)
    await task.finish(timeout: .seconds(15))
    #expect(log.all == [])
    #expect(store.results == [])
  }

  @Test("Effects cancelled in the turn that started them never run, however long the turn")
  func cancelledInALongTurnNeverRun() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let tasks = (0..<50).map { store.send(.startLong("\($0)", cancelInFlight: false)) }
    // The turn goes on for 20 ms: a task that began anywhere but on the main actor after this
    // turn would have logged its start by then.
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .milliseconds(20))
    while clock.now < end {}
    store.send(.stopLong)
    for task in tasks { await task.finish(timeout: .seconds(15)) }
    #expect(log.all == [])
  }

  @Test("cancelInFlight cancels the running effect with the same id before starting anew")
  func cancelInFlight() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let first = store.send(.startLong("one", cancelInFlight: true))
    await log.wait(for: "one started")
    let second = store.send(.startLong("two", cancelInFlight: true))
    await first.finish(timeout: .seconds(15))
    // The first was cancelled before the second started.
    #expect(log.all.prefix(2) == ["one started", "one cancelled"])
    #expect(store.isEffectInFlight(Work.long))
    await log.wait(for: "two started")
    second.cancel()
    await second.finish(timeout: .seconds(15))
    #expect(log.all == ["one started", "one cancelled", "two started", "two cancelled"])
    #expect(store.results == [])
  }

  @Test("Without cancelInFlight, effects under one id run side by side and cancel together")
  func sharedID() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let first = store.send(.startLong("one", cancelInFlight: false))
    let second = store.send(.startLong("two", cancelInFlight: false))
    await log.wait(for: "one started")
    await log.wait(for: "two started")
    store.send(.stopLong)
    await first.finish(timeout: .seconds(15))
    await second.finish(timeout: .seconds(15))
    #expect(Set(log.all) == ["one started", "two started", "one cancelled", "two cancelled"])
  }

  @Test("Cancelling an id with nothing in flight is a no-op, not an issue")
  func cancelUnknownID() {
    let recorder = RecordingReporter()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: Log()) }
    withIssueReporters([recorder]) { _ = store.send(.cancelUnknown) }
    #expect(recorder.messages.isEmpty)
  }

  @Test("Each store has its own registry: the same id in two stores never cancels across")
  func registriesArePerStore() async {
    let log = Log<String>()
    let one = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let two = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let running = one.send(.startLong("one", cancelInFlight: false))
    await log.wait(for: "one started")
    two.send(.stopLong)
    #expect(one.isEffectInFlight(Work.long))
    #expect(log.all == ["one started"])
    running.cancel()
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["one started", "one cancelled"])
  }

  @Test("StoreTask.cancel() cancels the action's effects")
  func storeTaskCancel() async {
    let log = Log<String>()
    let store = Store(initialState: Jobs.State()) { Jobs(gate: Gate(), log: log) }
    let task = store.send(.startLong("one", cancelInFlight: false))
    await log.wait(for: "one started")
    #expect(!task.isCancelled)
    task.cancel()
    #expect(task.isCancelled)
    // Out of flight at once, as with `.cancel(id:)`, not only once the task has ended.
    #expect(!store.isEffectInFlight(Work.long))
    await task.finish(timeout: .seconds(15))
    #expect(log.all == ["one started", "one cancelled"])
    #expect(!store.isEffectInFlight(Work.long))
  }

  @Test("A cancelled effect that has not stopped yet is out of flight but still tracked")
  func cancelledEffectDrains() async {
    let gate = Gate()
    let log = Log<String>()
    let store = Store(initialState: Stubborn.State()) { Stubborn(gate: gate, log: log) }
    let running = store.send(.start)
    await log.wait(for: "waiting")
    await store.send(.stop).finish(timeout: .seconds(15))  // does not wait for the stubborn effect
    #expect(!store.isEffectInFlight("work"))
    #expect(log.all == ["waiting"])
    // The effect's own send still waits for it: until its operation returns.
    let seenWhenFinished = Task {
      await running.finish(timeout: .seconds(15))
      return log.all
    }
    gate.release()
    #expect(await seenWhenFinished.value == ["waiting", "stopped after cancellation"])
  }

  @Test("Effect.concatenate runs one effect after the other")
  func concatenate() async {
    let log = Log<String>()
    let store = Store(initialState: Sequenced.State()) { Sequenced(log: log) }
    await store.send(.go).finish(timeout: .seconds(15))
    #expect(log.all == ["first", "second", "third"])
    #expect(store.received == ["first", "second"])
  }

  @Test("cancel(ids:) cancels every listed id; merge(with:) runs both effects")
  func cancelIDsAndMergeWith() async {
    let log = Log<String>()
    let store = Store(initialState: Sequenced.State()) { Sequenced(log: log) }
    let running = store.send(.startTwoCancellable)
    #expect(store.isEffectInFlight("a") && store.isEffectInFlight("b"))
    await log.wait(for: "a started")
    await log.wait(for: "b started")
    store.send(.cancelBoth)
    #expect(!store.isEffectInFlight("a") && !store.isEffectInFlight("b"))
    await running.finish(timeout: .seconds(15))
    #expect(Set(log.all) == ["a started", "b started", "a cancelled", "b cancelled"])
  }

  @Test("Effect.map transforms the actions an effect sends")
  func map() async {
    let store = Store(initialState: Sequenced.State()) { Sequenced(log: Log()) }
    await store.send(.mapped).finish(timeout: .seconds(15))
    #expect(store.received == ["mapped 7"])
  }
}

private struct Sequenced: Reducer {
  struct State: Equatable { var received: [String] = [] }
  enum Action: Sendable, Equatable {
    case go, mapped
    case record(String)
    case startTwoCancellable, cancelBoth
  }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .go:
      return .concatenate(
        .run { [log] send in
          try await Task.sleep(for: .milliseconds(20))
          log.append("first")
          await send(.record("first"))
        },
        .send(.record("second")),
        .run { [log] _ in log.append("third") }
      )
      .concatenate(with: .none)
    case .record(let value):
      if value == "second" { log.append("second") }
      state.received.append(value)
      return .none
    case .mapped:
      return Effect<Int>.run { send in await send(7) }.map { .record("mapped \($0)") }
    case .startTwoCancellable:
      let a = Effect<Action>.run { [log] _ in await sleepUntilCancelled(recording: log, as: "a") }
      let b = Effect<Action>.run { [log] _ in await sleepUntilCancelled(recording: log, as: "b") }
      return a.cancellable(id: "a").merge(with: b.cancellable(id: "b"))
    case .cancelBoth:
      return .cancel(ids: ["a", "b"])
    }
  }
}

/// An effect that notices cancellation only after its current wait ends.
private struct Stubborn: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, stop }
  let gate: Gate
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [gate, log] _ in
        log.append("waiting")
        await gate.wait()
        if Task.isCancelled { log.append("stopped after cancellation") }
      }
      .cancellable(id: "work")
    case .stop:
      return .cancel(id: "work")
    }
  }
}

/// An effect that waits for its gate and logs, as its last step, that it returns.
private struct Returning: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start }
  let gate: Gate
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [gate, log] _ in
      log.append("waiting")
      await gate.wait()
      log.append("returning")
    }
    .cancellable(id: "work")
  }
}

/// An effect that sends an action whose own effect takes a while.
private struct Relay: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, relayed }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in await send(.relayed) }
    case .relayed:
      log.append("relayed")
      return .run { [log] _ in
        try await Task.sleep(for: .milliseconds(20))
        log.append("second effect done")
      }
    }
  }
}
