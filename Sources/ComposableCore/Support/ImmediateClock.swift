/// A clock whose sleeps end at once, moving its time to their deadline: for tests and
/// previews where waiting is beside the point.
///
/// ```swift
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.clock = ImmediateClock()
/// }
/// await store.send(.decrementButtonTapped) { $0.count = -1 }
/// await store.receive(\.decrementDelayResponse) { $0.count = 0 }  // no advance needed
/// ```
///
/// A cancelled task's sleep throws `CancellationError`. A repeating timer on this clock never
/// waits, so it spins until cancelled; use `TestClock` for timers.
public final class ImmediateClock: Clock, Sendable {
  /// A point on the clock's time line.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock's origin.
    public let offset: Duration

    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let current: LockIsolated<Instant>

  /// Creates a clock at `now`.
  public init(now: Instant = Instant()) {
    self.current = LockIsolated(now)
  }

  public var now: Instant { current.current }
  public var minimumResolution: Duration { .zero }

  /// Moves time to `deadline` (never back) and returns after one yield.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withValue { $0 = Swift.max($0, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}
