import Foundation

/// Exponential backoff with jitter: attempt 1 waits `initial`, each next one `multiplier`
/// times longer, never more than `maximum`, plus up to `jitter` × that delay at random (so
/// clients that failed together do not retry together). Jitter only ever adds: a delay is
/// never shorter than the base asked for (a server's `retry:` or `Retry-After` is honoured).
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(30))
/// backoff.delay(afterFailures: 3)   // 2 s … 2.4 s
/// ```
public struct Backoff: Sendable {
  /// The wait after the first failure (unless a server gave a base).
  public var initial: Duration
  /// How much longer each next wait is.
  public var multiplier: Double
  /// The longest wait it grows to (a server's longer base is kept).
  public var maximum: Duration
  /// The most added at random, as a fraction of the delay (0 adds nothing).
  public var jitter: Double
  /// A random number in `0..<1` (injectable so a test can pin the jitter).
  public var random: @Sendable () -> Double

  public init(
    initial: Duration = .milliseconds(500), multiplier: Double = 2,
    maximum: Duration = .seconds(30),
    jitter: Double = 0.2, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.initial = initial
    self.multiplier = multiplier
    self.maximum = maximum
    self.jitter = jitter
    self.random = random
  }

  /// The wait after `failures` consecutive failures (1 or more), starting from `base` instead
  /// of `initial` when given; a base above `maximum` is kept (the server asked for it).
  public func delay(afterFailures failures: Int, base: Duration? = nil) -> Duration {
    let start = (base ?? initial).timeInterval
    let ceiling = max(maximum.timeInterval, start)
    // In seconds, where a huge growth is +infinity and `min` takes the ceiling (a Duration
    // would overflow after some 70 doublings).
    let grown = min(start * pow(multiplier, Double(max(0, failures - 1))), ceiling)
    return .seconds(grown + grown * jitter * min(max(random(), 0), 1))
  }
}
