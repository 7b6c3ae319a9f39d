extension Task where Failure == Never {
  /// Suspends until the calling task is cancelled, then throws `CancellationError`: an
  /// endpoint that never answers, for testing cancellation.
  ///
  /// ```swift
  /// $0.factClient.fetch = { _ in try await Task.never() }
  /// ```
  public static func never() async throws -> Success {
    // Each sleep ends early, throwing, when the task is cancelled.
    while true {
      try await Task<Never, Never>.sleep(for: .seconds(86_400))
    }
  }
}
