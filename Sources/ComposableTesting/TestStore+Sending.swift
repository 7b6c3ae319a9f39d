import ComposableCore

// Sending actions, and waiting for every effect to finish.

extension TestStore {
  // MARK: Sending

  /// Sends `action` and asserts the state change it causes.
  ///
  /// - Parameters:
  ///   - action: the action to send.
  ///   - updateStateToExpectedResult: mutate the state before the action into the state you
  ///     expect after it. Omit it when the action changes nothing.
  ///   - fileID: where a failure of this send is reported; the caller's location by default.
  ///   - filePath: as `fileID`.
  ///   - line: as `fileID`.
  ///   - column: as `fileID`.
  /// - Returns: the task of the action's effects; its ``TestStoreTask/finish(timeout:fileID:filePath:line:column:)``
  ///   is bounded by the store's ``timeout``.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    activateReporters()
    if !received.isEmpty {
      if exhaustivity == .on {
        fail(
          """
          Must handle \(received.count) received item(s) before sending \(action):
          \(bulleted(received.map { $0.description }))
          Assert them with `await store.receive(…)` / `receiveModification`, or set \
          `store.exhaustivity = .off`.
          """,
          at: location
        )
      } else {
        skipped(
          """
          Skipped assertions: \(received.count) received item(s) were not asserted before \
          sending \(action):
          \(bulleted(received.map { $0.description }))
          """,
          at: location
        )
      }
      skipReceivedActions()
    }
    let before = expectedState
    sentSnapshot = nil
    let task = engine.send(action)
    let after = sentSnapshot ?? engine.state
    assertChange(
      from: before, to: after, updateStateToExpectedResult, "after sending \(action)", at: location)
    expectedState = after
    // Every effect the action started has reached a suspension (its first sleep, say) before
    // the test goes on to move a clock. (Nothing to wait for when no effect runs.)
    if engine.registry.count > 0 {
      await monitor.waitUntilSuspended(timeout: timeout, at: location)
    }
    return TestStoreTask(
      rawValue: task, timeout: timeout,
      report: { [weak self] message, location in self?.fail(message, at: location) },
      describeRunning: { [weak self] in self?.describeRunningEffects() ?? "" }
    )
  }

  // MARK: Finishing

  /// Waits until every effect has finished. Fails, listing what started them, when some are
  /// still running after `timeout`.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    activateReporters()
    let limit = timeout ?? self.timeout
    var deadline = ProgressDeadline(timeout: limit)
    while engine.registry.count > 0 {
      guard await waitForProgress(until: deadline.instant) else {
        fail(
          """
          Expected effects to finish within \(limit), but \(engine.registry.count) are still \
          running. \(describeRunningEffects())
          """,
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        return
      }
      deadline.progressed()
    }
  }
}
