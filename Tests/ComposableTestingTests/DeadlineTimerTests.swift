import Foundation
import Testing

@testable import ComposableTesting

/// Which timers fired, in order, with when.
private final class Firings: Sendable {
  private let stream: AsyncStream<(String, ContinuousClock.Instant)>
  private let input: AsyncStream<(String, ContinuousClock.Instant)>.Continuation

  init() {
    (stream, input) = AsyncStream.makeStream()
  }

  func handler(_ name: String) -> @Sendable () -> Void {
    { [input] in input.yield((name, .now)) }
  }

  /// The next firing, or `nil` when none comes within five seconds.
  func next() async -> (String, ContinuousClock.Instant)? {
    await withTaskGroup(of: (String, ContinuousClock.Instant)?.self) { group in
      group.addTask { [stream] in await stream.first { _ in true } }
      group.addTask {
        try? await Task.sleep(for: .seconds(5))
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }
}

@Suite("DeadlineTimer: the bound of every wait")
struct DeadlineTimerTests {
  @Test("A timer fires once its deadline has passed, not before")
  func firesAfterTheDeadline() async {
    let firings = Firings()
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(50))
    let timer = DeadlineTimer(deadline: deadline, handler: firings.handler("due"))
    defer { timer.cancel() }
    let firing = await firings.next()
    #expect(firing?.0 == "due", "the timer did not fire within five seconds")
    if let firing { #expect(firing.1 >= deadline) }
  }

  @Test("A cancelled timer never fires; one registered after it still does")
  func cancelledTimerStaysQuiet() async {
    let firings = Firings()
    let now = ContinuousClock.now
    let cancelled = DeadlineTimer(
      deadline: now.advanced(by: .milliseconds(20)), handler: firings.handler("cancelled"))
    cancelled.cancel()
    let later = DeadlineTimer(
      deadline: now.advanced(by: .milliseconds(60)), handler: firings.handler("later"))
    defer { later.cancel() }
    // The later timer fires only after the watch looked past the cancelled one's deadline.
    #expect(await firings.next()?.0 == "later")
  }

  @Test("A timer registered after the others fired fires too (the watch starts again)")
  func watchRestarts() async {
    let firings = Firings()
    let first = DeadlineTimer(
      deadline: .now.advanced(by: .milliseconds(10)), handler: firings.handler("first"))
    defer { first.cancel() }
    #expect(await firings.next()?.0 == "first")
    // Unless other tests' waits are registered, the watch ends after its next look; the next
    // timer then starts it again.
    try? await Task.sleep(for: DeadlineWatch.resolution * 3)
    let second = DeadlineTimer(
      deadline: .now.advanced(by: .milliseconds(10)), handler: firings.handler("second"))
    defer { second.cancel() }
    #expect(await firings.next()?.0 == "second")
  }
}
