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
