/// The records of one kind of effect in a registry (running, or draining), oldest first,
/// linked through the records themselves: appending and removing are O(1) and allocate
/// nothing. Mutated only with the registry's lock held.
struct EffectList: Sequence {
  private(set) var count = 0
  var underestimatedCount: Int { count }
  private var head: EffectLifetime?
  private unowned(unsafe) var tail: EffectLifetime?

  var isEmpty: Bool { head == nil }

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

  /// Moves every record of `other` to the end of this list, leaving `other` empty. O(1).
  mutating func takeAll(from other: inout EffectList) {
    guard let otherHead = other.head else { return }
    otherHead.previous = tail
    if let tail { tail.next = otherHead } else { head = otherHead }
    tail = other.tail
    count += other.count
    other = EffectList()
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
