import Foundation

/// Exponential backoff with jitter: attempt 1 waits `initial`, each next one `multiplier`
/// times longer, plus up to `jitter` × that delay at random (so clients that failed together
/// do not retry together) — always within `minimum...maximum`. Jitter only ever adds: a delay
/// is never shorter than the base asked for (a server's `retry:` or `Retry-After` is honoured
/// up to `maximum`).
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(30))
/// backoff.delay(afterFailures: 3)   // 2 s … 2.4 s
/// ```
///
/// ``delay(afterFailures:base:)`` is total: every failure count, every base (zero, negative,
/// a year, whatever a server sent) and every setting gives a finite delay within
/// `minimum...maximum`, so no input a server controls can make a client reconnect at once,
/// wait forever, or trap.
public struct Backoff: Sendable {
  /// The wait after the first failure (unless a server gave a base).
  public var initial: Duration
  /// How much longer each next wait is.
  public var multiplier: Double
  /// The shortest wait, whatever the base (a server's `retry: 0` included).
  public var minimum: Duration
  /// The longest wait, whatever the base (a server's longer one included).
  public var maximum: Duration
  /// The most added at random, as a fraction of the delay (0 adds nothing).
  public var jitter: Double
  /// A random number in `0..<1` (injectable so a test can pin the jitter).
  public var random: @Sendable () -> Double

  public init(
    initial: Duration = .milliseconds(500), multiplier: Double = 2,
    minimum: Duration = .milliseconds(100), maximum: Duration = .seconds(30),
    jitter: Double = 0.2, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.initial = initial
    self.multiplier = multiplier
    self.minimum = minimum
    self.maximum = maximum
    self.jitter = jitter
    self.random = random
  }

  /// The wait after `failures` consecutive failures (1 or more; less counts as 1), starting
  /// from `base` instead of `initial` when given, within `minimum...maximum`.
  public func delay(afterFailures failures: Int, base: Duration? = nil) -> Duration {
    // In seconds, where a huge growth is +infinity and every step is clamped (a Duration would
    // overflow after some 70 doublings; 0 × ∞ would be NaN).
    let low = Self.seconds(minimum, orElse: 0)
    let high = max(low, Self.seconds(maximum, orElse: low))
    func clamped(_ value: Double) -> Double { value.isNaN ? high : min(max(value, low), high) }
    let start = clamped(Self.seconds(base ?? initial, orElse: high))
    let growth = multiplier.isFinite && multiplier >= 1 ? multiplier : 1
    let steps = failures <= 1 ? 0 : min(failures - 1, 2_048)  // (no `Int.min - 1`)
    let grown = clamped(start * pow(growth, Double(steps)))
    let fraction = jitter.isFinite ? max(jitter, 0) : 0
    let spread = min(max(random(), 0), 1)
    return .seconds(clamped(grown + grown * fraction * (spread.isNaN ? 0 : spread)))
  }

  /// `duration` in seconds, or `fallback` when that is not a finite number.
  private static func seconds(_ duration: Duration, orElse fallback: Double) -> Double {
    let value = duration.timeInterval
    return value.isFinite ? value : fallback
  }
}
