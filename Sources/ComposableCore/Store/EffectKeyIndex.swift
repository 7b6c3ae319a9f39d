/// The records of a registry's in-flight effects, by cancellation key.
///
/// A table from each key's hash (computed once, when the key was made) to the records of the
/// effects under keys with that hash; a record's own keys (``EffectLifetime/keys``) tell which
/// key it runs under. The table holds no keys: a probe compares integers in place (a table
/// keyed by ``EffectKey`` copies each key it passes, through its type-erased id, to compare
/// it), an entry is a few words, and the key is compared in the record, which registering,
/// finishing and cancelling touch anyway. Keys whose hashes collide share an entry.
///
/// Records must not change their keys while indexed; every access is under the registry's lock.
///
/// Complexity: one table probe per operation, then a comparison of `key` with the keys of each
/// record under its hash: O(1) on average for one effect under a key; `removeAll(under:)` is
/// O(records under the key).
struct EffectKeyIndex {
  private var recordsByHash: [Int: EffectRecordSet] = [:]

  /// Whether anything runs under `key`.
  func contains(_ key: EffectKey) -> Bool {
    guard let index = recordsByHash.index(forKey: key.hashCode) else { return false }
    return recordsByHash.values[index].contains { $0.keys.contains(key) }
  }

  /// Adds `record` (which runs under `key`) under `key`; answers whether the key had no effect
  /// before.
  mutating func insert(_ record: EffectLifetime, under key: EffectKey) -> Bool {
    guard let index = recordsByHash.index(forKey: key.hashCode) else {
      recordsByHash[key.hashCode] = EffectRecordSet(record)
      return true
    }
    // Another record under `key`, not this one (already here under an earlier key of its
    // own whose hash collides with `key`'s).
    let isNew = !recordsByHash.values[index].contains { $0 !== record && $0.keys.contains(key) }
    recordsByHash.values[index].insert(record)
    return isNew
  }

  /// Removes `record` from under `key`; answers whether `key` has no effect left after this
  /// removal (`false` when nothing is indexed under its hash: an earlier removal answered).
  mutating func remove(_ record: EffectLifetime, under key: EffectKey) -> Bool {
    guard let index = recordsByHash.index(forKey: key.hashCode) else { return false }
    if recordsByHash.values[index].remove(record) {
      recordsByHash.remove(at: index)
      return true
    }
    return !recordsByHash.values[index].contains { $0.keys.contains(key) }
  }

  /// Takes out every record under `key` (none when nothing runs under it).
  mutating func removeAll(under key: EffectKey) -> EffectRecordSet {
    guard let index = recordsByHash.index(forKey: key.hashCode) else { return EffectRecordSet() }
    // Usually every record under the hash runs under `key`: the entry goes whole.
    if recordsByHash.values[index].allSatisfy({ $0.keys.contains(key) }) {
      return recordsByHash.remove(at: index).value
    }
    // Some record under the hash does not run under `key`: the entry stays.
    return recordsByHash.values[index].remove { $0.keys.contains(key) }
  }

  /// Forgets every key.
  mutating func removeAll() {
    recordsByHash = [:]
  }
}
