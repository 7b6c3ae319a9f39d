/// Changes the state of the reducer that started an effect, from inside that effect.
///
/// Obtain one from ``Effect/run(modifying:priority:operation:catch:fileID:filePath:line:column:)``.
/// Like ``Send``, it drops changes from a cancelled effect and reports changes after the effect
/// finished.
///
/// `modify` and ``Send`` are synchronous on the main actor, so a change and the event that
/// announces it can be made atomic — nothing (not even a cancellation) runs between them:
///
/// ```swift
/// await MainActor.run {
///   state.modify { $0.admission = .admitted(context) }
///   send(.delegate(.grantValidated(context)))
/// }
/// ```
@MainActor
public struct StateModifier<State>: Sendable {
  /// Whether the effect's operation has returned.
  private let effect: EffectLifetime
  /// Where its modifications go.
  private let input: any EffectStateInput

  nonisolated init<Action>(context: EffectContext<Action>) {
    self.effect = context.lifetime
    self.input = context.input
  }

  /// Applies `body` to the reducer's state, in order with the actions the store processes.
  public func modify(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: @escaping @Sendable (inout State) -> Void
  ) {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !Task.isCancelled else { return }
    guard !effect.isFinished else {
      reportIssue(
        "An effect modified state after it had finished; the change was dropped.",
        fileID: fileID, filePath: filePath, line: line, column: column
      )
      return
    }
    input.modify(StateModification(body, location: location))
  }
}
