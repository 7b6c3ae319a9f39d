extension DependencyValues {
  /// The clock effects sleep on. Live: `ContinuousClock`. Tests install `TestClock` from
  /// `ComposableTesting`; a test that sleeps without installing one gets an issue.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }

  /// Another name for ``clock``, for code ported from TCA: reading or setting it reads or
  /// sets the same clock, so a test's `$0.clock = TestClock()` drives it too.
  public var continuousClock: any Clock<Duration> {
    get { clock }
    set { clock = newValue }
  }

  /// Another name for ``clock``, for code ported from TCA: reading or setting it reads or
  /// sets the same clock. (Live, the one clock is a `ContinuousClock`, which keeps counting
  /// while the system sleeps.)
  public var suspendingClock: any Clock<Duration> {
    get { clock }
    set { clock = newValue }
  }
}

private enum ClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = UnimplementedClock()
}

/// A clock that reports an issue when a test sleeps on it without installing a test clock,
/// then behaves as `ContinuousClock`.
struct UnimplementedClock: Clock {
  private let base = ContinuousClock()
  var now: ContinuousClock.Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    reportIssue(
      "Unimplemented: @Dependency(\\.clock) slept in a test. Install a TestClock with `$0.clock = clock`."
    )
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
