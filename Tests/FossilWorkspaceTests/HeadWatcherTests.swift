import ComposableCore
import ComposableTesting
import FossilWorkspace
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import ProcessTestSupport
import Testing
import WorkspaceHTTP

@Suite("Fossil head watcher", .requires(.fossil))
struct HeadWatcherTests {
  @Test func aCheckInByAnotherUserIsSeenAsANewHead() async throws {
    try await FossilFixture.with { fixture in
      let session = try await fixture.signedIn(FossilFixture.ada)
      let clock = TestClock()
      let updates = BoundedIterator(
        withDependencies {
          $0.clock = clock
        } operation: {
          FossilHeadWatcher(session: session, interval: .seconds(2)).updates(of: "trunk")
        })
      let first = try await fixture.head(of: "trunk")
      #expect(try await updates.next() == .head(first))
      let moved = try await fixture.checkIn("other.txt", "watched\n", on: "trunk")
      // Polls go on the clock: the change is seen at the next look (2 s, plus at most 20 %
      // jitter), not before.
      await clock.advance(by: .milliseconds(2_400))
      #expect(try await updates.next() == .head(moved))
    }
  }

  /// What an idle client costs a shared server: each look is a forked fossil process there.
  @Test func anIdleWatcherLooksAtMostThirtyTimesAMinuteAndNeverFasterThanItsInterval() {
    let watcher = FossilHeadWatcher(session: FossilSession(baseURL: URL(fileURLWithPath: "/")))
    for random in [0.0, 0.5, 0.999] {
      var idle = watcher.idle
      idle.random = { random }
      var elapsed = Duration.zero
      var looks = 0
      var waits: [Duration] = []
      while elapsed < .seconds(60) {
        looks += 1
        let wait = idle.delay(afterFailures: looks)
        waits.append(wait)
        elapsed += wait
      }
      #expect(looks <= 30, "\(looks) looks in the first minute (jitter \(random))")
      #expect(waits.allSatisfy { $0 >= .seconds(2) })
      #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 <= $1 }, "idle waits only grow")
      #expect(idle.delay(afterFailures: 1_000) <= .seconds(36), "at most 30 s plus jitter")
    }
  }

  @Test func failuresBackOffOnTheClock() async throws {
    let down = try LoopbackHTTPServer { _ in .status(503) }
    let session = FossilSession(baseURL: down.baseURL)
    let clock = TestClock()
    let backoff = Backoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0)
    let updates = withDependencies {
      $0.clock = clock
    } operation: {
      FossilHeadWatcher(session: session, backoff: backoff).updates(of: "trunk")
    }
    let bounded = BoundedIterator(updates)
    for (failures, delay) in [(1, Duration.seconds(1)), (2, .seconds(2)), (3, .seconds(4))] {
      guard case .waiting(let count, let wait, let reason)? = try await bounded.next() else {
        Issue.record("expected a failed look")
        break
      }
      #expect(count == failures)
      #expect(wait == delay)
      #expect(reason.contains("503"))
      await clock.advance(by: wait)
    }
    await down.stop()
  }
}
