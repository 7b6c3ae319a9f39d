import ComposableCore
import ComposableTesting
import Testing

/// `StoreTask.finish()` itself (the unbounded wait apps call), each wait bounded by the test:
/// a waiter runs in a task of its own and logs when it returns, and the test waits for that
/// entry with a timeout, so a waiter that is never resumed fails the test instead of hanging it.
@MainActor
@Suite("StoreTask.finish()")
struct StoreTaskFinishTests {
  @Test("Two waiters on one send both return once its last effect ends, sent-back ones included")
  func twoWaitersReturnAfterTheLastEffect() async {
    let gate = Gate()
    let log = Log<String>()
    let store = Store(initialState: Chain.State()) { Chain(gate: gate, log: log) }
    let task = store.send(.start)
    let waiters = (1...2).map { index in
      Task { @MainActor in
        await task.finish()
        log.append("waiter \(index) returned")
      }
    }
    await log.wait(for: "first started")
    #expect(!log.all.contains { $0.hasPrefix("waiter") }, "a waiter returned while an effect ran")
    gate.release()
    await log.wait(for: "waiter 1 returned")
    await log.wait(for: "waiter 2 returned")
    // The effect of the action the first effect sent back ended before either returned.
    let entries = log.all
    let secondDone = entries.firstIndex(of: "second done") ?? entries.endIndex
    #expect(secondDone < (entries.firstIndex(of: "waiter 1 returned") ?? -1))
    #expect(secondDone < (entries.firstIndex(of: "waiter 2 returned") ?? -1))
    for waiter in waiters { waiter.cancel() }
  }

  @Test("A send whose effects all ended, or that started none, is finished at once")
  func endedSendReturnsAtOnce() async {
    let log = Log<String>()
    let store = Store(initialState: Chain.State()) { Chain(gate: Gate(), log: log) }
    let task = store.send(.quick)
    await task.finish(timeout: .seconds(15))
    let waiter = Task { @MainActor in
      await task.finish()
      await store.send(.nothing).finish()
      log.append("returned")
    }
    await log.wait(for: "returned")
    waiter.cancel()
  }

  @Test("A waiter on another actor is resumed there")
  func waiterOnAnotherActor() async {
    let gate = Gate()
    let log = Log<String>()
    let store = Store(initialState: Chain.State()) { Chain(gate: gate, log: log) }
    let task = store.send(.start)
    let elsewhere = Elsewhere()
    let waiter = Task { await elsewhere.finish(task, logging: log) }
    await log.wait(for: "first started")
    gate.release()
    await log.wait(for: "returned on Elsewhere")
    waiter.cancel()
  }

  @Test("Cancelling the waiting task cancels the send's effects, and the wait returns")
  func cancellingTheWaiterCancelsTheEffects() async {
    let log = Log<String>()
    let store = Store(initialState: Chain.State()) { Chain(gate: Gate(), log: log) }
    let task = store.send(.long)
    let waiter = Task { @MainActor in
      await task.finish()
      log.append("returned")
    }
    await log.wait(for: "long started")
    waiter.cancel()
    await log.wait(for: "long cancelled")
    await log.wait(for: "returned")
    #expect(task.isCancelled)
  }
}

private actor Elsewhere {
  func finish(_ task: StoreTask, logging log: Log<String>) async {
    await task.finish()
    assertIsolated()
    log.append("returned on Elsewhere")
  }
}

/// An effect that waits for a gate and sends an action back, whose effect ends a moment later.
private struct Chain: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable { case start, sentBack, quick, long, nothing }
  let gate: Gate
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [gate, log] send in
        log.append("first started")
        await gate.wait()
        await send(.sentBack)
      }
    case .sentBack:
      return .run { [log] _ in
        try await Task.sleep(for: .milliseconds(20))
        log.append("second done")
      }
    case .quick:
      return .run { _ in }
    case .long:
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: "long") }
    case .nothing:
      return .none
    }
  }
}
