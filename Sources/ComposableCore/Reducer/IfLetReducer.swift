extension Reducer {
  /// Runs `child` on optional child state when it is present, before this reducer.
  ///
  /// The child's effects live as long as the child: however its state becomes `nil` — this
  /// reducer, another one, or an effect's `state.modify` — every effect it started is
  /// cancelled. A child action that arrives while the state is `nil` is reported as an issue.
  /// The child is identified by its whole path from the root store (every `Scope`, `ifLet` and
  /// `forEach` element on the way), so two copies of one feature never touch each other's
  /// children's effects.
  ///
  /// When the child state is `Identifiable`, a child replaced by one with another `id` is a new
  /// child: the old one's effects are cancelled after the action or modification that replaced
  /// it, even when the new child started work in that same action, so they can never write into
  /// the new one. A replacement undone within one action (back to the old `id`) is not seen. A non-`Identifiable` child replaced by another value is
  /// indistinguishable from the same child changed (as in TCA); make it `Identifiable` when
  /// that matters.
  ///
  /// Cost: each processed action or modification checks the children that have effects
  /// running, O(such children).
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
      identity: nil,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs `child` on optional `Identifiable` child state when it is present, before this
  /// reducer; a child replaced by one with another `id` has its effects cancelled.
  ///
  /// See ``ifLet(_:action:then:fileID:filePath:line:column:)``.
  public func ifLet<ChildState: Identifiable, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action, ChildState.ID: Sendable {
    // A @Sendable closure here may not capture the Identifiable conformance
    // (SendableMetatypes); it reads only the child's id, on the main actor.
    let identity = assumeSendable { (child: ChildState) in AnyHashableSendable(child.id) }
    return IfLetReducer(
      parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction,
      identity: identity,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer the `ifLet(_:action:then:)` modifiers of ``Reducer`` build.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let toChildAction: CasePath<Parent.Action, Child.Action>
  /// The child's identity, when its state is `Identifiable`.
  @usableFromInline let identity: (@Sendable (Child.State) -> AnyHashableSendable)?
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?> & Sendable,
    toChildAction: CasePath<Parent.Action, Child.Action>,
    identity: (@Sendable (Child.State) -> AnyHashableSendable)?,
    location: IssueLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.identity = identity
    self.location = location
  }

  /// The id every effect of one child is also registered under, so all of them can be
  /// cancelled: one per child instance (its `id`, when it is `Identifiable`), under the child's
  /// whole path from the root store.
  private struct ChildLifetime: Hashable, Sendable {
    let identity: AnyHashableSendable?
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let childEffect = reduceChild(into: &state, action: action)
    let parentEffect = parent.reduce(into: &state, action: action)
    return .merge(childEffect, parentEffect)
  }

  @inlinable
  func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    var effect: Effect<Child.Action> = .none
    var identified: AnyHashableSendable?
    let present = state[keyPath: toChildState].modifyIfPresent {
      effect = child.reduce(into: &$0, action: childAction)
      identified = identity?($0)
    }
    guard present else {
      reportAbsentChild(childAction)
      return .none
    }
    if case .none = effect.operation { return .none }
    return lift(effect, identity: identified)
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

  /// Embeds the child's actions, namespaces its ids, ties its effects to the lifetime of this
  /// child (they are cancelled as soon as the child state is `nil` or another child's, however
  /// it became so), and lifts its state modifications and presence questions.
  @usableFromInline
  func lift(_ effect: Effect<Child.Action>, identity current: AnyHashableSendable?) -> Effect<
    Parent.Action
  > {
    let keyPath = toChildState
    let component = AnyHashableSendable(keyPath)
    let identity = self.identity
    // This very child, if it is still there.
    let project: @Sendable (Parent.State) -> Child.State? = { parent in
      guard let child = parent[keyPath: keyPath] else { return nil }
      guard let identity, let current else { return child }
      return identity(child) == current ? child : nil
    }
    let lifetime = ChildLifetime(identity: current)
    let lifted =
      effect
      .cancellable(id: lifetime)
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
        presence: StatePredicate.lifting(through: project)
      )
    return Effect(
      .watched(
        EffectKey(id: lifetime, path: [component]),
        presence: .presence(of: project),
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
