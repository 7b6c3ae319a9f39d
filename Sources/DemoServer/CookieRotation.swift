import Foundation

/// When the server issues new cookie values to a session, and how long superseded ones stay
/// honoured.
///
/// The rule, which the client side (`HTTPSession`) is built to meet: **a value is honoured
/// while it is the session's newest, and for ``grace`` after newer values were issued.**
/// Honouring by time, not by how many rotations happened since, is what lets an app send any
/// number of calls at once: they all carry the value the client held when it sent them, and
/// every answer that arrives meanwhile (rotating or not) leaves that value honoured for the
/// grace. A value superseded longer ago than the grace, or any value of a session that signed
/// out, is refused (401).
///
/// ```swift
/// // Rotate on every answer; an old value lasts 30 s after the next one was issued.
/// let rotation = CookieRotation(interval: .zero, grace: .seconds(30))
/// ```
///
/// A session holds at most ``maximumHonoured`` values: with a short interval and a flood of
/// answers inside the grace, the oldest go first.
public struct CookieRotation: Sendable {
  /// A session call's answer issues new values once the newest ones are at least this old
  /// (`.zero`: every answer does).
  public var interval: Duration
  /// How long a value stays honoured after newer ones were issued.
  public var grace: Duration
  /// The time, for the two durations above (tests move it by hand).
  public var now: @Sendable () -> Date

  /// At most this many values of one session are honoured at once.
  public static let maximumHonoured = 256

  /// - Parameters:
  ///   - interval: how old the newest values must be before an answer rotates them; at least
  ///     zero.
  ///   - grace: how long a superseded value stays honoured; at least zero.
  ///   - now: the clock both durations are measured on.
  public init(
    interval: Duration = .seconds(60), grace: Duration = .seconds(120),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.interval = max(.zero, interval)
    self.grace = max(.zero, grace)
    self.now = now
  }
}
