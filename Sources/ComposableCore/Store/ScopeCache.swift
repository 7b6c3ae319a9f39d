/// The scoped stores one store handed out, so that scoping again to the same part (a view body
/// scoping on every render) returns the store already made instead of a new one.
///
/// Keys: the state key path (its identity first, then `==`), the kind of scope, and the
/// identity of the case path's embed function. A case path is a pair of closures with no
/// identity of its own, so the embed function is compared by its code and its captured context,
/// as pointers. Two functions with the same code and the same context are the same function,
/// so a store found under a key embeds exactly as the case path asked for would: another case
/// path with the same key path never gets it. A hit also needs the store to be alive, and a
/// live store holds its case path, so the context's address cannot have been reused by
/// another closure meanwhile.
///
/// Stores are held weakly: a scoped store lives while someone uses it (a view holds it from
/// one render to the next). Entries of released stores are dropped when the cache grows.
@usableFromInline
struct ScopeCache {
  private var entries: [ScopeKey: WeakStore] = [:]
  /// The entry count at which released stores' entries are dropped next.
  private var sweepAt = 8

  @usableFromInline
  init() {}

  /// The live store cached under `key`, if any.
  @usableFromInline
  func store(for key: ScopeKey?) -> AnyObject? {
    guard let key else { return nil }
    return entries[key]?.store
  }

  /// Caches `store` under `key` (a `nil` key, for a case path whose identity cannot be read,
  /// caches nothing).
  @usableFromInline
  mutating func insert(_ store: AnyObject, for key: ScopeKey?) {
    guard let key else { return }
    entries[key] = WeakStore(store: store)
    guard entries.count >= sweepAt else { return }
    entries = entries.filter { $0.value.store != nil }
    sweepAt = max(8, entries.count * 2)
  }

  /// Forgets the store cached under `key`.
  @usableFromInline
  mutating func remove(_ key: ScopeKey?) {
    guard let key else { return }
    entries[key] = nil
  }

  /// How many entries are kept, released stores' included (for tests).
  package var count: Int { entries.count }

  private struct WeakStore {
    weak var store: AnyObject?
  }
}

/// What a scoped store is cached under. See ``ScopeCache``.
@usableFromInline
struct ScopeKey: Hashable {
  @usableFromInline
  enum Kind: UInt8 {
    case equatable
    case notEquatable
    case optional
  }

  private let state: AnyKeyPath
  private let embed: FunctionIdentity
  private let kind: Kind

  /// The key of a scope, or `nil` when the case path's embed function cannot be identified.
  @usableFromInline
  init?<Root, Value>(state: AnyKeyPath, action: CasePath<Root, Value>, kind: Kind) {
    guard let embed = FunctionIdentity(action._embed) else { return nil }
    self.state = state
    self.embed = embed
    self.kind = kind
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.embed == rhs.embed && lhs.kind == rhs.kind
      && (lhs.state === rhs.state || lhs.state == rhs.state)
  }

  /// Hashes the key path's type, not its components: hashing a key path costs more than the
  /// rest of a lookup, and one store rarely scopes many key paths of one type with one case
  /// path.
  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(embed)
    hasher.combine(kind)
    hasher.combine(ObjectIdentifier(type(of: state)))
  }
}

/// The identity of a closure: its code and its context, as the two words a Swift closure is
/// made of. Equal identities mean the same function; a closure rebuilt with a new context has
/// another identity.
struct FunctionIdentity: Hashable {
  private let code: UInt
  private let context: UInt

  /// `nil` where a closure is not the two words this reads (no platform Swift supports today).
  init?<Input, Output>(_ function: @escaping (Input) -> Output) {
    guard MemoryLayout<(Input) -> Output>.size == MemoryLayout<Self>.size else { return nil }
    self = unsafeBitCast(function, to: Self.self)
  }
}
