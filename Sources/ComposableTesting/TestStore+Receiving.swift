import ComposableCore

// Asserting what effects send back and change.

extension TestStore {
  // MARK: Receiving

  /// Asserts the next item from an effect is `expected`, and the state change it caused.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      .action("\(expected)") { $0 == expected }, timeout: timeout,
      assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts the next item from an effect is an action of the case `casePath`.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .action("an action matching the case path") { casePath.extract(from: $0) != nil },
      timeout: timeout, assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts the next item from an effect is an action satisfying `predicate`.
  public func receive(
    matching predicate: @escaping (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .action("an action matching the predicate", predicate), timeout: timeout,
      assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts the next item from an effect is a direct state modification
  /// (`state.modify { … }`), and the change it made.
  public func receiveModification(
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .modification, timeout: timeout, assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  func receive(
    _ expectation: Expectation,
    timeout: Duration?,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: IssueLocation
  ) async {
    activateReporters()
    guard await waitForItem(matching: expectation, timeout: timeout ?? self.timeout, at: location)
    else { return }
    if exhaustivity != .on {
      var skippedItems: [String] = []
      while let first = received.first, !expectation.matches(first.item) {
        skippedItems.append(received.removeFirst().description)
      }
      if !skippedItems.isEmpty {
        skipped(
          """
          Skipped assertions: \(skippedItems.count) item(s) were received before \
          \(expectation.description) and not asserted:
          \(bulleted(skippedItems))
          """,
          at: location
        )
      }
    }
    guard !received.isEmpty else { return }
    let next = received.removeFirst()
    syncLedger()
    guard expectation.matches(next.item) else {
      fail(
        "Expected to receive \(expectation.description), but received \(next.description).",
        at: location
      )
      expectedState = next.state
      return
    }
    assertChange(
      from: expectedState, to: next.state, updateStateToExpectedResult,
      "after receiving \(next.description)", at: location)
    expectedState = next.state
    // The effect that sent this item goes on (to its next sleep, or to its end) before the test
    // does: a clock moved next finds it asleep, and the end-of-test check does not count an
    // effect that had nothing left to do.
    if engine.registry.count > 0 {
      await monitor.waitUntilSuspended(timeout: timeout ?? self.timeout, at: location)
    }
  }
}
