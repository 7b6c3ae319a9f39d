/// The records of a registry's effects that have not stopped, oldest first, linked through the
/// records themselves: appending and removing are O(1) and allocate nothing. Mutated only with
/// the registry's lock held.
struct EffectList: Sequence {
  private(set) var count = 0
  var underestimatedCount: Int { count }
  private var head: EffectLifetime?
  private unowned(unsafe) var tail: EffectLifetime?

  /// Adds `record`, which is in no list, at the end.
  mutating func append(_ record: EffectLifetime) {
    record.previous = tail
    record.next = nil
    if let tail { tail.next = record } else { head = record }
    tail = record
    count += 1
  }

  /// Removes `record`, which is in this list.
  mutating func remove(_ record: EffectLifetime) {
    let next = record.next
    if let previous = record.previous { previous.next = next } else { head = next }
    if let next { next.previous = record.previous } else { tail = record.previous }
    record.next = nil
    record.previous = nil
    count -= 1
  }

  /// Walks the records oldest first. The list must not change during the walk.
  struct Iterator: IteratorProtocol {
    fileprivate var record: EffectLifetime?

    mutating func next() -> EffectLifetime? {
      defer { record = record?.next }
      return record
    }
  }

  func makeIterator() -> Iterator { Iterator(record: head) }
}
