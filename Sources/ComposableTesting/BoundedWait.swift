import ComposableCore

/// Waits for every task of `task` to end, as `StoreTask.finish()` does, but fails (`false`)
/// when none ended for `timeout` (see ``ProgressDeadline``): effects that keep ending, each in
/// time, are waited for even when a slow main actor stretches the whole.
func waitForEffects(of task: StoreTask, timeout: Duration) async -> Bool {
  var deadline = ProgressDeadline(timeout: timeout)
  var awaited = 0
  while true {
    let pending = task.tasks(from: awaited)
    guard !pending.isEmpty else { return true }
    for effect in pending {
      guard await waitBounded(until: deadline.instant, { await effect.value }) else { return false }
      deadline.progressed()
    }
    awaited += pending.count
  }
}

/// Runs `operation` in a task of its own and waits for it until `deadline`.
///
/// - Returns: `true` when it ended in time; `false` when `deadline` passed first. The
///   operation then keeps running: the caller reports and decides what to cancel.
func waitBounded(
  until deadline: ContinuousClock.Instant,
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
    let timer = DeadlineTimer(deadline: deadline) { answer(false) }
    Task {
      await operation()
      timer.cancel()
      answer(true)
    }
  }
}

extension StoreTask {
  /// Waits until every effect of the action has finished; fails the test (through the scoped
  /// issue reporters, else ``TestIssueReporter``) and cancels the effects when none of them
  /// ended for `timeout` (or they kept going for four times that).
  ///
  /// For tests that drive a plain `Store`: unlike ``/ComposableCore/StoreTask/finish(isolation:)``, it can
  /// never hang a test suite.
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
    guard await waitForEffects(of: self, timeout: timeout) else {
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
