extension Clock where Duration == Swift.Duration {
  /// A sleep whose deadline is fixed when this is called, not when the sleep starts: a task
  /// that starts late still wakes on time, and a test may advance a `TestClock` as soon as it
  /// hears of the wait.
  ///
  /// ```swift
  /// let wait = clock.sleep(endingIn: .seconds(2))  // the deadline is now + 2 s
  /// announce("retrying in 2 s")                     // a test advances the clock here
  /// try await wait()
  /// ```
  public func sleep(endingIn duration: Duration) -> @Sendable () async throws -> Void {
    let deadline = now.advanced(by: duration)
    return { try await self.sleep(until: deadline, tolerance: nil) }
  }
}
