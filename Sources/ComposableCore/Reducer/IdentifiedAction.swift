/// The action of one element of an ``IdentifiedArray``, addressed by its id; used by
/// ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)-(_,CasePath<Self.Action,IdentifiedAction<ElementState.ID,ElementAction>>,_,_,_,_,_)``.
///
/// ```swift
/// enum Action { case events(IdentifiedAction<Event.ID, EventRow.Action>) }
/// store.send(.events(.element(id: event.id, action: .rename("Gala"))))
/// ```
public enum IdentifiedAction<ID: Hashable, Action> {
  case element(id: ID, action: Action)

  /// The element's id.
  public var id: ID {
    switch self {
    case .element(let id, _): id
    }
  }

  /// The element's action.
  public var action: Action {
    switch self {
    case .element(_, let action): action
    }
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where ID: Sendable, Action: Sendable {}

/// The ``IdentifiedAction`` of a feature's elements, as TCA names it:
/// `case rows(IdentifiedActionOf<Row>)`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable
