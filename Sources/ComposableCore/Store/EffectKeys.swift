/// The cancellation keys one effect runs under, outermost first.
///
/// Also the keys one `.cancel` cancels. Most effects run under none or one, which are kept without an array: an effect started
/// under one key allocates nothing for it. Appending and iterating are O(1) per key.
@usableFromInline
struct EffectKeys: Sequence, Sendable {
  private var first: EffectKey?
  private var others: [EffectKey] = []

  /// No keys.
  @usableFromInline
  init() {}

  /// One key.
  init(_ key: EffectKey) {
    first = key
  }

  /// How many keys. O(1).
  var count: Int { first == nil ? 0 : 1 + others.count }

  /// Makes room for `count` keys in all.
  mutating func reserveCapacity(_ count: Int) {
    if count > 1 { others.reserveCapacity(count - 1) }
  }

  /// Adds `key` after the others.
  mutating func append(_ key: EffectKey) {
    if first == nil { first = key } else { others.append(key) }
  }

  /// These keys and then `key`.
  func appending(_ key: EffectKey) -> Self {
    var copy = self
    copy.append(key)
    return copy
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
