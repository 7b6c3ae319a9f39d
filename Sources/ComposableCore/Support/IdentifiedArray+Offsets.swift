import Foundation

extension IdentifiedArray {
  /// Removes the elements at `offsets` (positions, as a list's `onDelete` reports them).
  ///
  /// The elements that stay keep their identity, so a `forEach` cancels the effects of the
  /// removed ones only. O(n). An offset outside the array is reported as an issue and skipped.
  ///
  /// ```swift
  /// case .onDelete(let offsets):
  ///   state.rows.remove(atOffsets: offsets)
  /// ```
  public mutating func remove(
    atOffsets offsets: IndexSet,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let valid = validOffsets(
      offsets, in: "remove(atOffsets:)", fileID: fileID, filePath: filePath, line: line,
      column: column)
    guard let first = valid.first else { return }
    for offset in valid { slots[elements[offset].id] = nil }
    elements.removeSubranges(RangeSet(valid, within: elements))
    reindex(from: first)
  }

  /// Moves the elements at `source` so they stand, in their order, before the element that
  /// was at `destination` (a list's `onMove`). Moved elements keep their identity: a
  /// `forEach` keeps their effects running. Offsets outside the array are reported and
  /// skipped.
  public mutating func move(
    fromOffsets source: IndexSet,
    toOffset destination: Int,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let valid = validOffsets(
      source, in: "move(fromOffsets:toOffset:)", fileID: fileID, filePath: filePath, line: line,
      column: column)
    guard !valid.isEmpty else { return }
    let moving = valid.map { elements[$0] }
    let target = destination - valid.filter { $0 < destination }.count
    elements.removeSubranges(RangeSet(valid, within: elements))
    elements.insert(contentsOf: moving, at: Swift.min(Swift.max(target, 0), elements.count))
    // Only positions change: every slot keeps its generation.
    reindex(from: 0)
  }

  /// The offsets inside the array, in order; the others are reported as an issue of `method`.
  private func validOffsets(
    _ offsets: IndexSet, in method: String, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) -> [Int] {
    let valid = offsets.filter { elements.indices.contains($0) }
    if valid.count != offsets.count {
      reportIssue(
        "IdentifiedArray.\(method): offsets outside 0..<\(count) were skipped.",
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return valid
  }
}
