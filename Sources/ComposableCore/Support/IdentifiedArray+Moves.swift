import Foundation

extension IdentifiedArray {
  /// The element at `position`. Writing keeps the element's identity (and a `forEach`
  /// element's effects) as long as the new value has the same `id`: `rows[0].title = "Gala"`.
  /// Writing a value with another `id` is a programmer error: it is reported as an issue and
  /// nothing changes. O(1).
  @inlinable
  public subscript(position: Int) -> Element {
    get { elements[position] }
    set {
      let id = elements[position].id
      guard newValue.id == id else {
        reportWriteUnderAnotherID(newValue.id, at: position, was: id)
        return
      }
      elements[position] = newValue
    }
  }

  @usableFromInline
  func reportWriteUnderAnotherID(_ newID: ID, at position: Int, was id: ID) {
    reportIssue(
      """
      IdentifiedArray: an element with id \(newID) was written at position \(position), which \
      holds id \(id); the write was ignored. Move elements with move(fromOffsets:toOffset:) \
      or swapAt(_:_:) instead.
      """
    )
  }

  /// Exchanges the elements at `i` and `j`; both keep their identity. O(1).
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    elements.swapAt(i, j)
    slots[elements[i].id]?.position = i
    slots[elements[j].id]?.position = j
    structure = StructureToken()
  }

  /// Moves the elements at `offsets` to before the element at `destination` (as SwiftUI's
  /// `onMove` reports it), keeping their order and their identity. O(n).
  ///
  /// ```swift
  /// state.rows.move(fromOffsets: IndexSet(integer: 0), toOffset: state.rows.count)
  /// ```
  public mutating func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
    let moving = offsets.filter { elements.indices.contains($0) }
    guard !moving.isEmpty else { return }
    let target = Swift.min(Swift.max(destination, 0), elements.count)
    let moved = moving.map { elements[$0] }
    let before = moving.count { $0 < target }
    for position in moving.reversed() { elements.remove(at: position) }
    elements.insert(contentsOf: moved, at: target - before)
    reindex(from: Swift.min(moving[0], target - before))
  }

  /// Sorts the elements in place; each keeps its identity. O(n log n).
  public mutating func sort(
    by areInIncreasingOrder: (Element, Element) throws -> Bool
  ) rethrows {
    try elements.sort(by: areInIncreasingOrder)
    reindex(from: 0)
  }

  /// Reverses the order of the elements; each keeps its identity. O(n).
  public mutating func reverse() {
    elements.reverse()
    reindex(from: 0)
  }
}
