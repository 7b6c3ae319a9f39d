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

  @Test func aServersBaseReplacesTheInitialWithinMinimumAndMaximum() {
    let backoff = Backoff(
      initial: .seconds(1), minimum: .milliseconds(100), maximum: .seconds(30), jitter: 0)
    #expect(backoff.delay(afterFailures: 1, base: .seconds(5)) == .seconds(5))
    #expect(backoff.delay(afterFailures: 2, base: .seconds(5)) == .seconds(10))
    #expect(backoff.delay(afterFailures: 1, base: .seconds(90)) == .seconds(30))
    #expect(backoff.delay(afterFailures: 1, base: .zero) == .milliseconds(100))
    #expect(backoff.delay(afterFailures: 1_025, base: .zero) == .seconds(30))
  }

  /// Every base a server can send, every failure count and hostile settings: a finite delay
  /// within minimum...maximum, never a trap (`retry: 0` once made 0 × 2^1024 = NaN).
  @Test func everyInputGivesAFiniteDelayWithinItsBounds() {
    let bases: [Duration?] = [
      nil, .zero, .nanoseconds(1), .seconds(-5), .milliseconds(Int64.max), .seconds(Int64.max),
      .seconds(Int64.min),
    ]
    let failures = [Int.min, -1, 0, 1, 2, 63, 64, 1_023, 1_024, 1_025, 100_000, Int.max]
    let settings: [Backoff] = [
      Backoff(),
      Backoff(initial: .zero, multiplier: 2, minimum: .zero, maximum: .seconds(10)),
      Backoff(initial: .seconds(1), multiplier: .infinity, maximum: .seconds(10)),
      Backoff(initial: .seconds(1), multiplier: .nan, maximum: .seconds(10), jitter: .nan),
      Backoff(initial: .seconds(1), multiplier: 0, maximum: .seconds(10), jitter: -1),
      Backoff(initial: .seconds(1), minimum: .seconds(5), maximum: .seconds(1)) { .nan },
    ]
    for backoff in settings {
      let low = max(backoff.minimum, .zero)
      let high = max(low, backoff.maximum)
      for base in bases {
        for count in failures {
          let delay = backoff.delay(afterFailures: count, base: base)
          #expect(
            delay >= low && delay <= high,
            "\(count) failures, base \(String(describing: base)): \(delay) outside \(low)…\(high)")
        }
      }
    }
  }

  @Test func jitterOnlyAddsAndStaysWithinItsFraction() {
    for random in [0.0, 0.5, 0.999, 7.0, -3.0] {
      let backoff = Backoff(initial: .seconds(10), maximum: .seconds(60), jitter: 0.2) { random }
      let delay = backoff.delay(afterFailures: 1)
      #expect(delay >= .seconds(10) && delay <= .seconds(12), "random \(random) gave \(delay)")
    }
  }
}
