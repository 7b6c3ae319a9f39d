/// The bound of a wait in the test tools: it fails after `timeout` without progress, and after
/// four times that in all.
///
/// Progress (an item received, an effect that finished or did something) moves the deadline:
/// a main actor slowed down by other work in the process — a large suite starting hundreds of
/// main-actor tests at once on a two-core machine — delays a wait without failing a store
/// whose effects are fine, while work that never settles still fails in bounded time.
struct ProgressDeadline {
  let timeout: Duration
  private let cap: ContinuousClock.Instant
  /// When the wait fails unless something happens first.
  private(set) var instant: ContinuousClock.Instant

  init(timeout: Duration) {
    let now = ContinuousClock.now
    self.timeout = timeout
    self.cap = now.advanced(by: timeout * 4)
    self.instant = min(cap, now.advanced(by: timeout))
  }

  /// Something happened: the wait may last `timeout` more (within the cap).
  mutating func progressed() {
    instant = min(cap, ContinuousClock.now.advanced(by: timeout))
  }

  var hasPassed: Bool { ContinuousClock.now >= instant }
}
