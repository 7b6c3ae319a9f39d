import ComposableCore
import ComposableTesting
import Foundation
import Testing

@testable import SwiftUICaseStudies

/// The ported tests prove something only if they fail when the feature is wrong: each story
/// here runs against a deliberately broken variant and expects the test store to fail.
@MainActor
struct BrokenFeatureTests {
  /// Timers whose toggle forgets `cancelInFlight`: turning the timer off leaves it ticking.
  struct TimersThatNeverStop: Reducer {
    typealias State = Timers.State
    typealias Action = Timers.Action
    @Dependency(\.continuousClock) var clock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .onDisappear: return .none
        case .timerTicked:
          state.secondsElapsed += 1
          return .none
        case .toggleTimerButtonTapped:
          state.isTimerActive.toggle()
          return .run { [isTimerActive = state.isTimerActive] send in
            guard isTimerActive else { return }
            for await _ in self.clock.timer(interval: .seconds(1)) { await send(.timerTicked) }
          }
        }
      }
    }
  }

  @Test("The timers story fails when stopping the timer does not cancel it")
  func timerThatNeverStops() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let clock = TestClock()
      let store = TestStore(initialState: Timers.State()) {
        TimersThatNeverStop()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
      await clock.advance(by: .seconds(1))
      await store.receive(\.timerTicked) { $0.secondsElapsed = 1 }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
    }
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("effect(s) were still running") == true)
  }

  @Test("The fact story fails when the response lands in the wrong case")
  func factInTheWrongCase() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: EffectsBasics.State()) {
        EffectsBasics()
      } withDependencies: {
        $0.factClient.fetch = { _ in throw CancellationErrorLookalike() }
      }
      await store.send(.numberFactButtonTapped) { $0.isNumberFactRequestInFlight = true }
      await store.receive(\.numberFactResponse.success) { $0.isNumberFactRequestInFlight = false }
    }
    #expect(
      recorder.messages.first?.hasPrefix(
        "Expected to receive an action matching the case path, but received numberFactResponse("
      ) == true)
  }

  @Test("The recursion story fails when the assertion puts the new row in the wrong place")
  func nestedRowAddressedByID() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(
        initialState: Nested.State(id: UUID(9), rows: [Nested.State(id: UUID(0))])
      ) {
        Nested()
      } withDependencies: {
        $0.uuid = .incrementing
      }
      await store.send(\.rows[id: UUID(0)].addRowButtonTapped) {
        $0.rows.append(Nested.State(id: UUID(0)))
      }
    }
    #expect(recorder.messages.count == 1)
  }

  struct CancellationErrorLookalike: Error {}
}
