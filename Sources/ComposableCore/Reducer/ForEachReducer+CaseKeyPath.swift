extension Reducer {
  /// `forEach` with the element actions' case named by a case key path, as TCA spells it:
  /// `.forEach(\.rows, action: \.rows) { Row() }`.
  ///
  /// The key path is resolved to its ``CasePath`` here, once; everything else is
  /// ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)-(_,CasePath<Self.Action,IdentifiedAction<ElementState.ID,ElementAction>>,_,_,_,_,_)``.
  public func forEach<ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementState>> & Sendable,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ElementState.ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> ForEachReducer<Self, Element>
  where ElementState == Element.State, ElementAction == Element.Action, ElementState.ID: Sendable {
    forEach(
      toElements, action: CasePath(toElementAction), element: element, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}
