/// A set of effect records (those under one key hash in ``EffectKeyIndex``): usually one,
/// kept without a table.
///
/// Inserting and removing are O(1) (amortized, once a second effect arrives).
struct EffectRecordSet: Sequence {
  private enum Storage {
    case none
    case one(EffectLifetime)
    case many([ObjectIdentifier: EffectLifetime])
  }

  private var storage = Storage.none

  /// No effect.
  init() {}

  /// One effect.
  init(_ record: EffectLifetime) {
    storage = .one(record)
  }

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

  /// Calls `body` with every record, in no particular order. Reads the usual single record in
  /// place (iterating would copy it into an iterator first).
  func forEachRecord(_ body: (EffectLifetime) -> Void) {
    switch storage {
    case .none: return
    case .one(let record): body(record)
    case .many(let records): for record in records.values { body(record) }
    }
  }

  /// Whether `predicate` holds for every record, read as ``forEachRecord(_:)`` reads them.
  func allSatisfy(_ predicate: (EffectLifetime) -> Bool) -> Bool {
    switch storage {
    case .none: true
    case .one(let record): predicate(record)
    case .many(let records): records.values.allSatisfy(predicate)
    }
  }

  /// Whether `predicate` holds for any record, read as ``forEachRecord(_:)`` reads them.
  func contains(where predicate: (EffectLifetime) -> Bool) -> Bool {
    switch storage {
    case .none: false
    case .one(let record): predicate(record)
    case .many(let records): records.values.contains(where: predicate)
    }
  }

  /// Adds `record`.
  mutating func insert(_ record: EffectLifetime) {
    switch storage {
    case .none:
      storage = .one(record)
    case .one(let existing) where existing === record: return
    case .one(let existing):
      storage = .many([ObjectIdentifier(existing): existing, ObjectIdentifier(record): record])
    case .many(var records):
      storage = .none  // keeps `records` uniquely referenced while it changes
      records[ObjectIdentifier(record)] = record
      storage = .many(records)
    }
  }

  /// Takes out the records `isRemoved` picks, and returns them. O(n).
  mutating func remove(where isRemoved: (EffectLifetime) -> Bool) -> Self {
    var removed = Self()
    for record in self where isRemoved(record) {
      _ = remove(record)
      removed.insert(record)
    }
    return removed
  }

  /// Removes `record`; answers whether none is left (the set's entry should then go).
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
      if !records.isEmpty { storage = .many(records) }
      return records.isEmpty
    }
  }
}
