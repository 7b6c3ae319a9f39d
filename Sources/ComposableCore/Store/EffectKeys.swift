/// The cancellation keys one effect runs under, outermost first.
///
/// Also the keys one `.cancel` cancels. Most effects run under none or one, which are kept without an array: an effect started
/// under one key allocates nothing for it. Appending and iterating are O(1) per key.
@usableFromInline
struct EffectKeys: Sequence, Sendable {
  private var first: EffectKey?
  private var others: [EffectKey] = []
  /// How many keys. O(1).
  private(set) var count = 0

  /// No keys.
  @usableFromInline
  init() {}

  /// One key.
  init(_ key: EffectKey) {
    first = key
    count = 1
  }

  /// Makes room for `count` keys in all.
  mutating func reserveCapacity(_ count: Int) {
    if count > 1 { others.reserveCapacity(count - 1) }
  }

  /// Adds `key` after the others.
  mutating func append(_ key: EffectKey) {
    if count == 0 { first = key } else { others.append(key) }
    count += 1
  }

  /// These keys and then `key`.
  @usableFromInline
  func appending(_ key: EffectKey) -> Self {
    var copy = self
    copy.append(key)
    return copy
  }

  /// Whether `key` is one of these keys. Compares them in place: `Sequence.contains` would
  /// copy each key to iterate (the registry asks this for every record it finds under a key's
  /// hash). O(count).
  func contains(_ key: EffectKey) -> Bool {
    if let first, first == key { return true }
    return others.contains(key)
  }

  /// Each key transformed, in order.
  func mapped(_ transform: (EffectKey) -> EffectKey) -> Self {
    var mapped = Self()
    for key in self { mapped.append(transform(key)) }
    return mapped
  }

  @usableFromInline
  struct Iterator: IteratorProtocol {
    private var first: EffectKey?
    private var others: IndexingIterator<[EffectKey]>

    fileprivate init(_ keys: EffectKeys) {
      first = keys.first
      others = keys.others.makeIterator()
    }

    @usableFromInline
    mutating func next() -> EffectKey? {
      if let key = first {
        first = nil
        return key
      }
      return others.next()
    }
  }

  @usableFromInline
  func makeIterator() -> Iterator { Iterator(self) }
}
