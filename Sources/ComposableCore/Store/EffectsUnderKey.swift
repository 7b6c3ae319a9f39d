/// The records of the effects running under one cancellation key: usually one, kept without a
/// table.
///
/// Inserting and removing are O(1) (amortized, once a second effect arrives).
struct EffectsUnderKey: Sequence {
  private enum Storage {
    case none
    case one(EffectLifetime)
    case many([ObjectIdentifier: EffectLifetime])
  }

  private var storage = Storage.none

  /// No effect: the value a key's entry starts from, inserted into in place (one table probe
  /// per key and effect).
  init() {}

  struct Iterator: IteratorProtocol {
    fileprivate var one: EffectLifetime?
    fileprivate var many: Dictionary<ObjectIdentifier, EffectLifetime>.Values.Iterator?

    mutating func next() -> EffectLifetime? {
      if let record = one {
        one = nil
        return record
      }
      return many?.next()
    }
  }

  /// Every record, in no particular order.
  func makeIterator() -> Iterator {
    switch storage {
    case .none: Iterator(one: nil, many: nil)
    case .one(let record): Iterator(one: record, many: nil)
    case .many(let records): Iterator(one: nil, many: records.values.makeIterator())
    }
  }

  /// Adds `record`; answers whether the key had no effect before.
  @discardableResult
  mutating func insert(_ record: EffectLifetime) -> Bool {
    switch storage {
    case .none:
      storage = .one(record)
      return true
    case .one(let existing) where existing === record: return false
    case .one(let existing):
      storage = .many([ObjectIdentifier(existing): existing, ObjectIdentifier(record): record])
    case .many(var records):
      storage = .none  // keeps `records` uniquely referenced while it changes
      records[ObjectIdentifier(record)] = record
      storage = .many(records)
    }
    return false
  }

  /// Removes `record`; answers whether none is left (the key's entry should then go).
  mutating func remove(_ record: EffectLifetime) -> Bool {
    switch storage {
    case .none:
      return true
    case .one(let existing):
      guard existing === record else { return false }
      storage = .none
      return true
    case .many(var records):
      storage = .none
      records[ObjectIdentifier(record)] = nil
      storage = .many(records)
      return records.isEmpty
    }
  }
}
