/// A type-erased change to some reducer's state, produced by ``StateModifier/modify(fileID:filePath:line:column:_:)``
/// and lifted through scopes until it reaches the store's root state.
package struct StateModification: Sendable {
  private let box: any Sendable
  /// Where `modify` was called, for diagnostics.
  package let location: IssueLocation

  init<State>(_ body: @escaping @Sendable (inout State) -> Void, location: IssueLocation) {
    self.box = Typed(body: body)
    self.location = location
  }

  /// The change as a function of `State`, or `nil` when it was made for another state type.
  package func typed<State>(as _: State.Type) -> (@Sendable (inout State) -> Void)? {
    (box as? Typed<State>)?.body
  }

  /// Lifts a change of `Child` into a change of `Parent` through `embed`, which applies a
  /// child change inside a parent value and says whether the child was there.
  static func lift<Parent, Child>(
    _ modification: StateModification,
    describing scope: @autoclosure () -> String,
    embed: @escaping @Sendable (inout Parent, (inout Child) -> Void) -> Bool
  ) -> StateModification? {
    guard let body = modification.typed(as: Child.self) else {
      reportModificationTypeMismatch(modification, expected: Child.self)
      return nil
    }
    let location = modification.location
    let description = scope()
    return StateModification(
      { (parent: inout Parent) in
        if !embed(&parent, body) {
          reportIssue(
            """
            An effect modified \(description) after that state was removed; the change was \
            dropped. (Effects of removed children are cancelled; this one was still running.)
            """,
            fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column
          )
        }
      },
      location: location
    )
  }

  static func reportModificationTypeMismatch(_ modification: StateModification, expected: Any.Type)
  {
    let location = modification.location
    reportIssue(
      """
      An effect's `state.modify` was built for another state type than \(expected). \
      Pass the reducer's own `State.self` to `.run(modifying:)`.
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column
    )
  }

  private struct Typed<State>: Sendable {
    let body: @Sendable (inout State) -> Void
  }
}
