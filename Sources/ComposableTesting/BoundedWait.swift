import ComposableCore

/// Runs `operation` in a task of its own and waits for it, at most `timeout`.
///
/// - Returns: `true` when it ended in time; `false` when `timeout` passed first. The operation
///   then keeps running: the caller reports and decides what to cancel.
func waitBounded(
  timeout: Duration,
  _ operation: @escaping @Sendable () async -> Void
) async -> Bool {
  await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let resume = LockIsolated<CheckedContinuation<Bool, Never>?>(continuation)
    let answer: @Sendable (Bool) -> Void = { value in
      resume.withValue { pending in
        defer { pending = nil }
        return pending
      }?.resume(returning: value)
    }
    let timer = Task {
      try? await Task.sleep(for: timeout)
      if !Task.isCancelled { answer(false) }
    }
    Task {
      await operation()
      timer.cancel()
      answer(true)
    }
  }
}

extension StoreTask {
  /// Waits until every effect of the action has finished, at most `timeout`; fails the test
  /// (through the scoped issue reporters, else ``TestIssueReporter``) and cancels the effects
  /// when they are still running then.
  ///
  /// For tests that drive a plain `Store`: unlike ``finish()``, it can never hang a test suite.
  ///
  /// ```swift
  /// await store.send(.refresh).finish(timeout: .seconds(5))
  /// ```
  public func finish(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard await waitBounded(timeout: timeout, { await self.finish() }) else {
      let message = """
        Expected the action's effects to finish within \(timeout), but they are still running; \
        they were cancelled. Cancel long-running work in the feature, or advance the clock it \
        waits on.
        """
      let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      for reporter in IssueReporters.scoped ?? [TestIssueReporter()] {
        reporter.reportIssue(message, at: location)
      }
      cancel()
      return
    }
  }
}
