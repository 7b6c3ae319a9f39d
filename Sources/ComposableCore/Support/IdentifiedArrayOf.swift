/// An ``IdentifiedArray`` of `Element`, as TCA names it: `var rows: IdentifiedArrayOf<Row.State>`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element>
where Element.ID: Sendable
