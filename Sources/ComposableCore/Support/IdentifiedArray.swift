/// An ordered collection of identifiable elements with O(1) lookup by id.
///
/// Complexity:
/// - `subscript(id:)` read, in-place modify of an existing element: O(1) (amortised hashing).
/// - `append(_:)` of a new id: amortised O(1).
/// - `remove(id:)`, `insert(_:at:)`, `remove(at:)`: O(n) (positions after the change are
///   re-indexed).
/// - Iteration and positional access: as `Array`; a positional write that keeps the id: O(1).
/// - Moves that keep each element's identity: `swapAt(_:_:)` O(1),
///   `move(fromOffsets:toOffset:)` and `reverse()` O(n), `sort(by:)` O(n log n).
///
/// Ids are unique: appending an element whose id is present replaces that element in place; an
/// array literal or ``init(uniqueElements:fileID:filePath:line:column:)`` that repeats an id
/// reports an issue (decoding throws).
/// An element's id must not change while it is stored: writing or modifying an element so that
/// its id differs from the id it is stored under is reported as an issue, and the index never
/// goes out of step with the elements.
///
/// ```swift
/// var events: IdentifiedArray<Event> = [gala, fair]
/// events[id: gala.id]?.title = "Winter Gala"
/// events.remove(id: fair.id)
/// ```
public struct IdentifiedArray<Element: Identifiable>: RandomAccessCollection
where Element.ID: Sendable {
  public typealias ID = Element.ID

  /// Where an element is, and which insertion put it there.
  @usableFromInline
  struct Slot: Sendable {
    @usableFromInline var position: Int
    /// Unique in the process to one insertion: an element removed and added again under the
    /// same id, or added to two copies of one array, gets a new generation each time (how
    /// `forEach` tells a replaced element from the same one). Moves keep it.
    @usableFromInline let generation: UInt64

    @usableFromInline
    init(position: Int, generation: UInt64) {
      self.position = position
      self.generation = generation
    }
  }

  @usableFromInline var elements: [Element]
  @usableFromInline var slots: [ID: Slot]
  /// Replaced on every change to the set or order of ids, so "ids unchanged" is an O(1)
  /// identity check.
  @usableFromInline var structure = StructureToken()

  /// Creates an empty collection.
  public init() {
    self.elements = []
    self.slots = [:]
  }

  /// Creates a collection from `elements`; a later element replaces an earlier one with the
  /// same id.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// Creates a collection from `elements`, whose ids must be unique: a repeated id is reported
  /// as an issue (a programmer error), and the later element replaces the earlier one.
  public init(
    uniqueElements elements: some Sequence<Element>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init()
    var repeated: [ID] = []
    for element in elements {
      if slots[element.id] != nil { repeated.append(element.id) }
      append(element)
    }
    guard !repeated.isEmpty else { return }
    reportIssue(
      """
      IdentifiedArray: the elements repeat id \(repeated.map { "\($0)" }.joined(separator: ", ")); \
      each repeated element replaced the earlier one. Ids must be unique.
      """,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  @inlinable public var startIndex: Int { elements.startIndex }
  @inlinable public var endIndex: Int { elements.endIndex }

  /// The ids in order.
  public var ids: [ID] { elements.map(\.id) }

  /// Whether an element with `id` is present. O(1).
  @inlinable
  public func contains(id: ID) -> Bool { slots[id] != nil }

  /// The position of the element with `id`. O(1).
  public func index(id: ID) -> Int? { slots[id]?.position }

  /// Which insertion of `id` is present, if any. O(1).
  @inlinable
  package func generation(of id: ID) -> UInt64? { slots[id]?.generation }

  /// The element with `id`, or `nil`. Setting `nil` removes it; setting a value for an absent
  /// id appends it; modifying an existing element happens in place.
  ///
  /// Setting an element whose own `id` is not `id` is a programmer error: it is reported as an
  /// issue and nothing changes.
  public subscript(id id: ID) -> Element? {
    get { slots[id].map { elements[$0.position] } }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      guard newValue.id == id else {
        reportIssue(
          """
          IdentifiedArray: an element with id \(newValue.id) was written under id \(id); the \
          write was ignored. An element's id must match the id it is stored under.
          """
        )
        return
      }
      if let slot = slots[id] {
        elements[slot.position] = newValue
      } else {
        append(newValue)
      }
    }
  }

  /// Modifies the element with `id` in place; `nil` when no such element exists.
  ///
  /// Changing the element's own `id` in `body` is a programmer error: it is reported as an
  /// issue, and the index stays consistent — the element is kept under its new id when no
  /// other element has it, and dropped otherwise.
  @inlinable
  @discardableResult
  public mutating func modify<R>(
    id: ID,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (inout Element) throws -> R
  ) rethrows -> R? {
    guard let position = slots[id]?.position else { return nil }
    let result = try body(&elements[position])
    if elements[position].id != id {
      repairChangedID(
        at: position, was: id,
        location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return result
  }

  /// Re-indexes an element whose id a modification changed (a programmer error, reported).
  @usableFromInline
  mutating func repairChangedID(at position: Int, was oldID: ID, location: IssueLocation) {
    let newID = elements[position].id
    let kept = slots[newID] == nil
    reportIssue(
      """
      IdentifiedArray: modifying the element with id \(oldID) changed its id to \(newID). \
      \(kept ? "It is kept under \(newID)" : "Another element has id \(newID), so it was dropped"). \
      An element's id must not change while it is stored.
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column
    )
    slots[oldID] = nil
    if kept {
      slots[newID] = Slot(position: position, generation: Generations.next())
      structure = StructureToken()
    } else {
      elements.remove(at: position)
      reindex(from: position)
    }
  }

  /// Appends `element`, or replaces the element with the same id in place.
  public mutating func append(_ element: Element) {
    if let slot = slots[element.id] {
      elements[slot.position] = element
      return
    }
    slots[element.id] = Slot(position: elements.count, generation: Generations.next())
    elements.append(element)
    structure = StructureToken()
  }

  /// Inserts `element` at `index`. An element with the same id is removed first.
  public mutating func insert(_ element: Element, at index: Int) {
    remove(id: element.id)
    let clamped = Swift.min(Swift.max(index, 0), elements.count)
    elements.insert(element, at: clamped)
    slots[element.id] = Slot(position: clamped, generation: Generations.next())
    reindex(from: clamped)
  }

  /// Removes and returns the element with `id`, or `nil` when absent.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = slots[id]?.position else { return nil }
    return remove(at: position)
  }

  /// Removes and returns the element at `position`.
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    let removed = elements.remove(at: position)
    slots[removed.id] = nil
    reindex(from: position)
    return removed
  }

  /// Removes all elements.
  public mutating func removeAll() {
    elements.removeAll()
    slots.removeAll()
    structure = StructureToken()
  }

  @usableFromInline
  mutating func reindex(from start: Int) {
    for position in start..<elements.count {
      slots[elements[position].id]?.position = position
    }
    structure = StructureToken()
  }
}

/// Numbers insertions, once per process: no two insertions, in any array or any copy of one,
/// share a generation.
@usableFromInline
enum Generations {
  private static let last = LockIsolated<UInt64>(0)

  @usableFromInline
  static func next() -> UInt64 {
    last.withValue { last in
      last &+= 1
      return last
    }
  }
}

@usableFromInline
final class StructureToken: Sendable {
  @usableFromInline init() {}
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// A literal's ids must be unique: a repeated id is reported as an issue.
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
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
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "IdentifiedArray: the encoded elements repeat an id"
        ))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    try elements.encode(to: encoder)
  }
}
