/// An ordered collection of identifiable elements with O(1) lookup by id.
///
/// Complexity:
/// - `subscript(id:)` read, in-place modify of an existing element: O(1) (amortised hashing).
/// - `append(_:)` of a new id: amortised O(1).
/// - `remove(id:)`, `insert(_:at:)`, `remove(at:)`: O(n) (positions after the change are
///   re-indexed).
/// - Iteration and positional access: as `Array`.
///
/// Ids are unique: appending an element whose id is present replaces that element in place.
///
/// ```swift
/// var events: IdentifiedArray<Event> = [gala, fair]
/// events[id: gala.id]?.title = "Winter Gala"
/// events.remove(id: fair.id)
/// ```
public struct IdentifiedArray<Element: Identifiable>: RandomAccessCollection
where Element.ID: Sendable {
  public typealias ID = Element.ID

  @usableFromInline var elements: [Element]
  @usableFromInline var positions: [ID: Int]
  /// Replaced on every change to the set or order of ids, so "ids unchanged" is an O(1)
  /// identity check (used to find removed elements cheaply).
  @usableFromInline var structure = StructureToken()

  /// Creates an empty collection.
  public init() {
    self.elements = []
    self.positions = [:]
  }

  /// Creates a collection from `elements`; a later element replaces an earlier one with the
  /// same id.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  @inlinable public var startIndex: Int { elements.startIndex }
  @inlinable public var endIndex: Int { elements.endIndex }
  @inlinable public subscript(position: Int) -> Element { elements[position] }

  /// The ids in order.
  public var ids: [ID] { elements.map(\.id) }

  /// Whether an element with `id` is present. O(1).
  @inlinable
  public func contains(id: ID) -> Bool { positions[id] != nil }

  /// The position of the element with `id`. O(1).
  public func index(id: ID) -> Int? { positions[id] }

  /// The element with `id`, or `nil`. Setting `nil` removes it; setting a value for an absent
  /// id appends it; modifying an existing element happens in place.
  public subscript(id id: ID) -> Element? {
    get { positions[id].map { elements[$0] } }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      if let position = positions[id] {
        elements[position] = newValue
      } else {
        append(newValue)
      }
    }
  }

  /// Modifies the element with `id` in place; `nil` when no such element exists.
  @inlinable
  @discardableResult
  public mutating func modify<R>(id: ID, _ body: (inout Element) throws -> R) rethrows -> R? {
    guard let position = positions[id] else { return nil }
    return try body(&elements[position])
  }

  /// Appends `element`, or replaces the element with the same id in place.
  public mutating func append(_ element: Element) {
    if let position = positions[element.id] {
      elements[position] = element
      return
    }
    positions[element.id] = elements.count
    elements.append(element)
    structure = StructureToken()
  }

  /// Inserts `element` at `index`. An element with the same id is removed first.
  public mutating func insert(_ element: Element, at index: Int) {
    remove(id: element.id)
    let clamped = Swift.min(Swift.max(index, 0), elements.count)
    elements.insert(element, at: clamped)
    reindex(from: clamped)
  }

  /// Removes and returns the element with `id`, or `nil` when absent.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = positions[id] else { return nil }
    return remove(at: position)
  }

  /// Removes and returns the element at `position`.
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    let removed = elements.remove(at: position)
    positions[removed.id] = nil
    reindex(from: position)
    return removed
  }

  /// Removes all elements.
  public mutating func removeAll() {
    elements.removeAll()
    positions.removeAll()
    structure = StructureToken()
  }

  private mutating func reindex(from start: Int) {
    for position in start..<elements.count {
      positions[elements[position].id] = position
    }
    structure = StructureToken()
  }

  /// The ids and their order, cheap to keep: it shares storage with the id index only, so
  /// keeping it does not make later in-place element changes copy the elements.
  @inlinable
  package var structureSnapshot: StructureSnapshot {
    StructureSnapshot(token: structure, positions: positions)
  }

  /// See ``structureSnapshot``.
  @usableFromInline
  package struct StructureSnapshot {
    @usableFromInline let token: StructureToken
    @usableFromInline let positions: [ID: Int]

    @usableFromInline
    init(token: StructureToken, positions: [ID: Int]) {
      self.token = token
      self.positions = positions
    }

    /// The ids present in the snapshot but not in `array`. O(1) when `array` has the same
    /// structure, O(n) otherwise.
    @inlinable
    package func removedIDs(in array: IdentifiedArray) -> [ID] {
      guard token !== array.structure else { return [] }
      return positions.keys.filter { !array.contains(id: $0) }
    }
  }
}

@usableFromInline
final class StructureToken: Sendable {
  @usableFromInline init() {}
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elements == rhs.elements
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(elements)
  }
}

extension IdentifiedArray: Sendable where Element: Sendable {}

extension IdentifiedArray: CustomStringConvertible, CustomReflectable {
  public var description: String { elements.description }
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

extension IdentifiedArray: Codable where Element: Codable {
  public init(from decoder: any Decoder) throws {
    let elements = try [Element](from: decoder)
    self.init(elements)
    guard self.count == elements.count else {
      throw DecodingError.dataCorrupted(.init(
        codingPath: decoder.codingPath,
        debugDescription: "IdentifiedArray: the encoded elements repeat an id"
      ))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try elements.encode(to: encoder)
  }
}
