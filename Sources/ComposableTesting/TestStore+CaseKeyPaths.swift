import ComposableCore

// TCA's call shapes: case key paths and case checks.

extension TestStore {
  /// Asserts the next item from an effect is an action of the case `keyPath` names, as TCA
  /// spells it: `await store.receive(\.factResponse.success) { … }` (see `CaseKeyPath` in ComposableCore).
  public func receive<Value>(
    _ keyPath: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      CasePath(keyPath), timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts the next item from an effect is an action `isMatching` accepts:
  /// `await store.receive { if case .timerTicked = $0 { true } else { false } }`.
  public func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: isMatching, timeout: timeout, assert: updateStateToExpectedResult,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends the action of a case without associated values, named by a case key path:
  /// `await store.send(\.rows[id: UUID(0)].addRowButtonTapped) { … }`.
  @discardableResult
  public func send(
    _ keyPath: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let action: Action = CasePath(keyPath).embed(())
    return await send(
      action, assert: updateStateToExpectedResult, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Sends `value` in the case a case key path names:
  /// `await store.send(\.rows[id: UUID(0)].nameChanged, "Blob") { … }`.
  @discardableResult
  public func send<Value>(
    _ keyPath: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let action: Action = CasePath(keyPath).embed(value)
    return await send(
      action, assert: updateStateToExpectedResult, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}
