/// Sends actions from a running effect back to its store.
///
/// ```swift
/// return .run { send in
///   await send(.started)
/// }
/// ```
///
/// Sends from an effect that was cancelled are dropped (so a late answer never lands), and a
/// send after the effect finished (for example from an escaped `send`) is reported as an issue
/// and dropped.
@MainActor
public struct Send<Action: Sendable>: Sendable {
  let context: EffectContext<Action>

  /// Not the synthesized initializer: that one would be isolated to the main actor, and an
  /// effect's context is made off it. Always inlined, as ``EffectContext``'s.
  @inline(__always)
  nonisolated init(_ context: EffectContext<Action>) {
    self.context = context
  }

  /// Sends `action` to the store, unless this effect was cancelled.
  public func callAsFunction(
    _ action: Action,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard !Task.isCancelled else { return }
    deliver(action, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends `action` even when this effect was cancelled: for a result that already exists
  /// elsewhere and must not be lost, such as a record created past a commit point.
  ///
  /// ```swift
  /// let record = try await client.publishProposal(…)  // the record exists from here on
  /// await send.deliver(.delegate(.published(record)))
  /// ```
  public func deliver(
    _ action: Action,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard !context.lifetime.isFinished else {
      reportIssue(
        """
        An effect sent \(action) after it had finished; the action was dropped. Send only from \
        inside the effect's operation, and await any work it starts.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    context.send(action)
  }
}
