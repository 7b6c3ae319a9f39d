import ComposableCore
import ComposableTesting
import Foundation
import Testing

/// Effects that do work before their first clock sleep: the shapes a test store must never miss.
struct SlowStarter: Reducer {
  struct State: Equatable { var done = 0 }
  enum Action: Sendable, Equatable {
    case start(Shape)
    case started, finished
  }

  /// What the effect does between being started and sleeping on the clock.
  enum Shape: Sendable, Equatable, CaseIterable {
    /// CPU work only.
    case work
    /// Work, then an await on a default actor.
    case workThenActor
    /// Work, then a hop to the main actor.
    case workThenMainActor
    /// Work, then child tasks (a task group and `async let`).
    case workThenChildTasks
    /// Sends an action, then works, then sleeps (the test receives before advancing).
    case sendThenWork
  }

  let workDuration: Duration
  /// This store's own actor (an actor shared with another test store's effects may run their
  /// jobs on that store's executor, outside this store's view).
  let tally = Tally()
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let shape):
      let work = workDuration
      let tally = self.tally
      return .run { send in
        if shape == .sendThenWork { await send(.started) }
        busyWork(for: work)
        switch shape {
        case .work, .sendThenWork: break
        case .workThenActor: _ = await tally.bump()
        case .workThenMainActor: await MainActor.run { _ = 1 }
        case .workThenChildTasks:
          async let one = tally.bump()
          let two = await withTaskGroup(of: Int.self) { group in
            group.addTask {
              busyWork(for: work)
              return 1
            }
            return await group.reduce(0, +)
          }
          _ = await (one, two)
        }
        try await clock.sleep(for: .seconds(1))
        await send(.finished)
      }
    case .started:
      return .none
    case .finished:
      state.done += 1
      return .none
    }
  }
}

actor Tally {
  private var count = 0
  func bump() -> Int {
    count += 1
    return count
  }
}

/// Spins the CPU for `duration` (no suspension), as real computation does.
private func busyWork(for duration: Duration) {
  let end = ContinuousClock.now.advanced(by: duration)
  var spins = 0
  while ContinuousClock.now < end { spins &+= 1 }
}

/// `Scripts/stress-exact-waiting.sh` runs this suite repeatedly with the CPU busy (two spinning
/// processes), as on a loaded CI machine.
@MainActor
@Suite("A test store's waits are exact", .serialized)
struct ExactWaitingTests {
  @Test("send returns only after an effect that works 100 ms reached its first sleep")
  func workBeforeFirstSleep() async {
    let clock = TestClock()
    let store = TestStore(initialState: SlowStarter.State()) {
      SlowStarter(workDuration: .milliseconds(100))
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.start(.work))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.finished) { $0.done = 1 }
  }

  @Test("Stress: send returns only after an effect's last main-actor hops were applied, 300 times")
  func mainActorHopsBeforeEnd() async {
    // `loadTwice` modifies state, sends an action and modifies again, then ends: each hop to
    // the main actor is queued there by the effect's job just before it ends. A hop queued
    // while the store's check was already on its way round the main actor was once missed.
    var misses: [Int] = []
    for _ in 0..<300 {
      let store = TestStore(initialState: Facts.State()) { Facts() }
      store.exhaustivity = .off
      await store.send(.loadTwice)
      if store.state.count != 110 { misses.append(store.state.count) }
      await store.finish()
      if misses.count == 10 { break }  // enough to say it is broken, in the suite's usual time
    }
    #expect(
      misses.isEmpty, "\(misses.count) of 300 sends returned early (counts \(misses.prefix(10)))")
  }

  @Test(
    "Stress: every shape, 200 times each: no sleeper is ever missed",
    arguments: SlowStarter.Shape.allCases)
  func stress(shape: SlowStarter.Shape) async {
    var misses = 0
    var firstMiss: [String] = []
    for _ in 0..<200 {
      let recorder = IssueRecorder()
      let clock = TestClock()
      await withIssueReporters([recorder]) {
        let store = TestStore(initialState: SlowStarter.State()) {
          SlowStarter(workDuration: .microseconds(300))
        } withDependencies: {
          $0.clock = clock
        }
        await store.send(.start(shape))
        if shape == .sendThenWork { await store.receive(.started) }
        if clock.sleeperCount != 1 {
          reportIssue("the wait returned before the effect slept on the test clock")
        }
        await clock.advance(by: .seconds(1))
        await store.receive(.finished) { $0.done = 1 }
      }
      if !recorder.messages.isEmpty {
        misses += 1
        if firstMiss.isEmpty { firstMiss = recorder.messages }
        // A broken rule fails the test in the suite's usual time, not 200 runs of timeouts.
        if misses == 3 { break }
      }
    }
    #expect(misses == 0, "\(misses) of 200 runs missed the sleeper (\(shape)); first: \(firstMiss)")
  }
}
