import ComposableCore

/// The effects of an action sent to a ``TestStore``: a `StoreTask` whose waits are bounded.
///
/// ```swift
/// await store.send(.startTimer)
/// …
/// await store.send(.refresh).finish()   // fails the test, naming what still runs, after the timeout
/// ```
public struct TestStoreTask: Sendable {
  /// The store task underneath.
  public let rawValue: StoreTask
  let timeout: Duration
  let report: @MainActor @Sendable (String, IssueLocation) -> Void
  let describeRunning: @MainActor @Sendable () -> String

  /// Cancels every effect of the action and waits (bounded by the store's timeout) until
  /// their tasks have ended, as TCA's `await task.cancel()` does: nothing they do can land
  /// after this returns.
  @MainActor
  public func cancel(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let task = rawValue
    task.cancel()
    guard await waitForEffects(of: task, timeout: timeout) else {
      report(
        "The action's effects were cancelled but did not end within \(timeout): an effect "
          + "ignores cancellation. \(describeRunning())",
        IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
      return
    }
  }

  /// `true` when every effect of the action was cancelled, or it started none.
  public var isCancelled: Bool { rawValue.isCancelled }

  /// Waits until every effect of the action has finished (including effects of actions they
  /// sent back). When they are still running after `timeout` (default: the store's), the test
  /// fails with a message naming what runs, and the action's effects are cancelled.
  @MainActor
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let limit = timeout ?? self.timeout
    let task = rawValue
    guard await waitForEffects(of: task, timeout: limit) else {
      report(
        """
        Expected the action's effects to finish within \(limit), but they are still running; \
        they were cancelled. \(describeRunning())
        """,
        IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
      task.cancel()
      return
    }
  }
}
