/// The effects running under one cancellation key: usually one, kept without a set.
///
/// Inserting and removing are O(1) (amortized, once a second token arrives).
struct EffectTokens: Sequence {
  private enum Storage {
    case one(EffectRegistry.Token)
    case many(Set<EffectRegistry.Token>)
  }

  private var storage: Storage

  init(_ token: EffectRegistry.Token) {
    storage = .one(token)
  }

  struct Iterator: IteratorProtocol {
    fileprivate var one: EffectRegistry.Token?
    fileprivate var many: Set<EffectRegistry.Token>.Iterator?

    mutating func next() -> EffectRegistry.Token? {
      if let token = one {
        one = nil
        return token
      }
      return many?.next()
    }
  }

  /// Every token, in no particular order.
  func makeIterator() -> Iterator {
    switch storage {
    case .one(let token): Iterator(one: token, many: nil)
    case .many(let tokens): Iterator(one: nil, many: tokens.makeIterator())
    }
  }

  mutating func insert(_ token: EffectRegistry.Token) {
    switch storage {
    case .one(let existing) where existing == token: return
    case .one(let existing): storage = .many([existing, token])
    case .many(var tokens):
      storage = .many([])  // keeps `tokens` uniquely referenced while it changes
      tokens.insert(token)
      storage = .many(tokens)
    }
  }

  /// Removes `token`; answers whether none is left.
  mutating func remove(_ token: EffectRegistry.Token) -> Bool {
    switch storage {
    case .one(let existing):
      guard existing == token else { return false }
      storage = .many([])
      return true
    case .many(var tokens):
      storage = .many([])
      tokens.remove(token)
      storage = .many(tokens)
      return tokens.isEmpty
    }
  }
}
