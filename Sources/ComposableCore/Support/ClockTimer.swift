extension Clock where Duration == Swift.Duration {
  /// An endless sequence that ticks every `interval`, on deadlines fixed from now (start +
  /// interval, start + 2 × interval, …), so slow consumers do not drift. Iteration ends when
  /// the task is cancelled.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in clock.timer(interval: .seconds(1)) { await send(.timerTicked) }
  /// }
  /// .cancellable(id: CancelID.timer, cancelInFlight: true)
  /// ```
  ///
  /// Works on `any Clock<Duration>` (the `\.clock` dependency): a `TestClock` fires one tick
  /// per interval the test advances past.
  public func timer(interval: Duration) -> ClockTimer {
    let start = now
    return ClockTimer { tick in
      try await self.sleep(until: start.advanced(by: interval * tick), tolerance: nil)
    }
  }
}

/// The ticks of `clock.timer(interval:)`. Each element is the tick's number, from 1.
public struct ClockTimer: AsyncSequence, Sendable {
  public typealias Element = Int
  public typealias Failure = Never

  let sleepUntilTick: @Sendable (Int) async throws -> Void

  public func makeAsyncIterator() -> Iterator {
    Iterator(sleepUntilTick: sleepUntilTick)
  }

  /// Sleeps until the next tick; ends (`nil`) when the task is cancelled.
  public struct Iterator: AsyncIteratorProtocol {
    let sleepUntilTick: @Sendable (Int) async throws -> Void
    var tick = 0

    public mutating func next() async -> Int? {
      guard !Task.isCancelled else { return nil }
      tick += 1
      do {
        try await sleepUntilTick(tick)
      } catch {
        return nil
      }
      return tick
    }
  }
}
