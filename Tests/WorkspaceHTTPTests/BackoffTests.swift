import Testing
import WorkspaceHTTP

@Suite("Backoff")
struct BackoffTests {
  @Test func growsExponentiallyUpToTheMaximumAndNeverOverflows() {
    let backoff = Backoff(initial: .seconds(1), maximum: .seconds(30), jitter: 0)
    #expect(
      (1...6).map { backoff.delay(afterFailures: $0) }.map(\.components.seconds) == [
        1, 2, 4, 8, 16, 30,
      ])
    #expect(backoff.delay(afterFailures: 10_000) == .seconds(30))
    #expect(backoff.delay(afterFailures: 0) == .seconds(1))
  }

  @Test func aServersBaseReplacesTheInitialAndMayExceedTheMaximum() {
    let backoff = Backoff(initial: .seconds(1), maximum: .seconds(30), jitter: 0)
    #expect(backoff.delay(afterFailures: 1, base: .seconds(5)) == .seconds(5))
    #expect(backoff.delay(afterFailures: 2, base: .seconds(5)) == .seconds(10))
    #expect(backoff.delay(afterFailures: 1, base: .seconds(90)) == .seconds(90))
    #expect(backoff.delay(afterFailures: 3, base: .seconds(90)) == .seconds(90))
  }

  @Test func jitterOnlyAddsAndStaysWithinItsFraction() {
    for random in [0.0, 0.5, 0.999, 7.0, -3.0] {
      let backoff = Backoff(initial: .seconds(10), maximum: .seconds(60), jitter: 0.2) { random }
      let delay = backoff.delay(afterFailures: 1)
      #expect(delay >= .seconds(10) && delay <= .seconds(12), "random \(random) gave \(delay)")
    }
  }
}
