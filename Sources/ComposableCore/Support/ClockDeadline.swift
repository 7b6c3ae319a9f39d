extension Clock where Duration == Swift.Duration {
  /// A sleep that ends `duration` after now — now, when this is called, not when the sleep
  /// starts: a task that starts late still wakes on time.
  func sleep(endingIn duration: Duration) -> @Sendable () async throws -> Void {
    let deadline = now.advanced(by: duration)
    return { try await self.sleep(until: deadline, tolerance: nil) }
  }
}
