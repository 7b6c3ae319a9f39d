extension Reducer {
  /// Runs `child` on optional child state when it is present, before this reducer.
  ///
  /// When this reducer sets the child state to `nil`, every effect the child started is
  /// cancelled. A child action that arrives while the state is `nil` is reported as an issue.
  ///
  /// However the child state becomes `nil` — this reducer, another one, or an effect's
  /// `state.modify` — its effects are cancelled. (A child replaced by a new one in a single
  /// reduce is not "gone": its effects keep running.) Cost: each processed action or
  /// modification checks the children that have effects running, O(such children).
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.proposalForm, action: .proposalForm) { ProposalForm() }
  /// ```
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` builds.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    toChildAction: CasePath<Parent.Action, Child.Action>, location: IssueLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  /// The id every child effect is also registered under, so all of them can be cancelled.
  private struct ChildLifetime: Hashable, Sendable {}

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let childEffect = reduceChild(into: &state, action: action)
    let wasPresent = state[keyPath: toChildState] != nil
    let parentEffect = parent.reduce(into: &state, action: action)
    guard wasPresent, state[keyPath: toChildState] == nil else {
      return .merge(childEffect, parentEffect)
    }
    return .merge(childEffect, parentEffect, childRemoved())
  }

  /// Cancels every effect of the child that was removed.
  @usableFromInline
  func childRemoved() -> Effect<Parent.Action> {
    Effect(.cancel(EffectKey(id: ChildLifetime(), path: [AnyHashableSendable(toChildState)])))
  }

  @inlinable
  func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    var effect: Effect<Child.Action> = .none
    let present = state[keyPath: toChildState].modifyIfPresent {
      effect = child.reduce(into: &$0, action: childAction)
    }
    guard present else {
      reportAbsentChild(childAction)
      return .none
    }
    if case .none = effect.operation { return .none }
    return lift(effect)
  }

  @usableFromInline
  func reportAbsentChild(_ childAction: Child.Action) {
    reportIssue(
      """
      ifLet received the child action \(childAction) while \(toChildState) was nil; it was \
      ignored. Send child actions only while the child state exists.
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column
    )
  }

  /// Embeds the child's actions, namespaces its ids, ties its effects to its lifetime (they are
  /// cancelled as soon as the child state is `nil`, however it became so), and lifts its state
  /// modifications and presence questions.
  @usableFromInline
  func lift(_ effect: Effect<Child.Action>) -> Effect<Parent.Action> {
    let keyPath = toChildState
    let component = AnyHashableSendable(keyPath)
    let lifted = effect
      .cancellable(id: ChildLifetime())
      .transformed(
        action: toChildAction.embed,
        component: component,
        modification: { modification in
          StateModification.lift(
            modification,
            describing: "\(keyPath)"
          ) { (parent: inout Parent.State, body) in
            parent[keyPath: keyPath].modifyIfPresent(body)
          }
        },
        presence: StatePredicate.lifting { (parent: Parent.State) in parent[keyPath: keyPath] }
      )
    return Effect(.watched(
      EffectKey(id: ChildLifetime(), path: [component]),
      presence: .presence { (parent: Parent.State) in parent[keyPath: keyPath] },
      lifted
    ))
  }
}

extension Optional {
  /// Applies `body` to the wrapped value in place; returns whether there was one.
  @inlinable
  @discardableResult
  mutating func modifyIfPresent(_ body: (inout Wrapped) -> Void) -> Bool {
    guard case .some(var wrapped) = self else { return false }
    self = nil  // drop the second reference so `body` mutates uniquely, without a copy
    body(&wrapped)
    self = .some(wrapped)
    return true
  }
}
