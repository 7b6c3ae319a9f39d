extension Reducer {
  /// Runs `element` on the element an ``IdentifiedAction`` names, before this reducer.
  ///
  /// Each element's effects are namespaced by its id (two elements never share a cancellation
  /// id) and live as long as the element: however it is removed — this reducer, another one,
  /// or an effect's `state.modify` — its effects are cancelled, and so are they when it is
  /// removed and added again under the same id, or the whole array is replaced by one that
  /// holds the id anew (that is a new element, whose own new work is kept). Moving an element
  /// (``IdentifiedArray/move(fromOffsets:toOffset:fileID:filePath:line:column:)``, `swapAt`, `sort`, `reverse`) keeps it,
  /// and its effects. An element is identified by its whole path from the root store (every
  /// `Scope`, `ifLet` and `forEach` element on the way), so two copies of one feature never
  /// touch each other's elements' effects. An action for an id that is not present is
  /// reported as an issue.
  ///
  /// Cost per element action: O(1) to find and reduce the element. Each processed action or
  /// modification checks the elements that have effects running, O(such elements).
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.events, action: .events) { EventRow() }
  /// ```
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementState>> & Sendable,
    action toElementAction: CasePath<Action, IdentifiedAction<ElementState.ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> ForEachReducer<Self, Element>
  where ElementState == Element.State, ElementAction == Element.Action, ElementState.ID: Sendable {
    ForEachReducer(
      parent: self, element: element(), toElements: toElements, toElementAction: toElementAction,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)-(_,CasePath<Self.Action,IdentifiedAction<ElementState.ID,ElementAction>>,_,_,_,_,_)`` builds.
public struct ForEachReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID: Sendable {
  public typealias ID = Element.State.ID

  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElements:
    WritableKeyPath<Parent.State, IdentifiedArray<Element.State>> & Sendable
  @usableFromInline let toElementAction:
    CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, element: Element,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>> & Sendable,
    toElementAction: CasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    location: IssueLocation
  ) {
    self.parent = parent
    self.element = element
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.location = location
  }

  /// The id every effect of one insertion of an element is also registered under.
  private struct ElementLifetime: Hashable, Sendable {
    let generation: UInt64?
  }

  /// The scope path component of one element.
  private struct ElementComponent: Hashable, Sendable {
    let elements: AnyHashableSendable
    let id: ID
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let elementEffect = reduceElement(into: &state, action: action)
    let parentEffect = parent.reduce(into: &state, action: action)
    return .merge(elementEffect, parentEffect)
  }

  @inlinable
  func reduceElement(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    guard case .element(let id, let elementAction) = toElementAction.extract(from: action) else {
      return .none
    }
    let effect = state[keyPath: toElements].modify(id: id) {
      element.reduce(into: &$0, action: elementAction)
    }
    guard let effect else {
      reportAbsentElement(id, elementAction)
      return .none
    }
    if case .none = effect.operation { return .none }
    return lift(effect, id: id, generation: state[keyPath: toElements].generation(of: id))
  }

  @usableFromInline
  func reportAbsentElement(_ id: ID, _ elementAction: Element.Action) {
    reportIssue(
      """
      forEach received \(elementAction) for id \(id), which is not in \(toElements); it was \
      ignored. Send element actions only while the element exists.
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column
    )
  }

  /// Embeds the element's actions, namespaces its ids, ties its effects to the lifetime of this
  /// insertion of the element, and lifts its state modifications.
  ///
  /// - Parameter generation: which insertion of `id` started the effect (`nil`: the element's
  ///   reducer changed its id, so it is already gone).
  @usableFromInline
  func lift(_ effect: Effect<Element.Action>, id: ID, generation: UInt64?) -> Effect<Parent.Action>
  {
    let keyPath = toElements
    let embed = toElementAction.embed
    let project = Self.projection(id: id, generation: generation, in: keyPath)
    let lifetime = ElementLifetime(generation: generation)
    let lifted =
      effect
      .cancellable(id: lifetime)
      .transformed(
        action: { embed(.element(id: id, action: $0)) },
        component: component(id),
        modification: { modification in
          StateModification.lift(
            modification,
            describing: "\(keyPath)[id: \(id)]",
            embed: Self.embedding(id: id, in: keyPath)
          )
        },
        presence: StatePredicate.lifting(through: project)
      )
    // Cancelled as soon as the element is gone, however it was removed.
    return Effect(
      .watched(
        EffectKey(id: lifetime, path: [component(id)]),
        presence: .presence(of: project),
        lifted
      ))
  }

  /// The element with `id` in a parent, if it is still the same insertion.
  private static func projection(
    id: ID,
    generation: UInt64?,
    in keyPath: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>> & Sendable
  ) -> @Sendable (Parent.State) -> Element.State? {
    // Built as a plain closure: a @Sendable one here may not capture the element's
    // Identifiable conformance (SendableMetatypes); it only ever runs on the main actor.
    assumeSendable { (parent: Parent.State) in
      let elements = parent[keyPath: keyPath]
      guard let generation, elements.generation(of: id) == generation else { return nil }
      return elements[id: id]
    }
  }

  /// Applies an element change inside the parent.
  private static func embedding(
    id: ID,
    in keyPath: WritableKeyPath<Parent.State, IdentifiedArray<Element.State>> & Sendable
  ) -> @Sendable (inout Parent.State, (inout Element.State) -> Void) -> Bool {
    // A @Sendable closure here may not capture the element's Identifiable conformance
    // (SendableMetatypes); the plain closure is only ever called on the main actor.
    assumeSendable { (parent: inout Parent.State, body: (inout Element.State) -> Void) in
      parent[keyPath: keyPath].modify(id: id, body) != nil
    }
  }

  private func component(_ id: ID) -> AnyHashableSendable {
    AnyHashableSendable(ElementComponent(elements: AnyHashableSendable(toElements), id: id))
  }
}
