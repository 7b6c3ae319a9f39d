/// The collection of dependencies in force for the current task.
///
/// Values are read with ``Dependency`` and overridden for a scope with
/// `withDependencies(_:operation:)` or the reducer modifiers
/// ``Reducer/dependency(_:_:)`` and ``Reducer/dependency(_:)``. Effects run with the values that
/// were in force when their action was reduced.
///
/// Register a value by extending `DependencyValues` with a computed property:
///
/// ```swift
/// extension DependencyValues {
///   var workspaceClient: WorkspaceClient {
///     get { self[WorkspaceClient.self] }
///     set { self[WorkspaceClient.self] = newValue }
///   }
/// }
/// ```
public struct DependencyValues: Sendable {
  /// The values of the current task.
  @TaskLocal public static var current = DependencyValues()

  private var storage: [ObjectIdentifier: any Sendable] = [:] {
    didSet { revision = Revision() }
  }
  private var defaults = DefaultValueCache.shared
  /// Replaced on every change, so "the same values" is an O(1) identity check.
  @usableFromInline var revision = Revision()

  /// Which default (`liveValue`, `previewValue`, `testValue`) an unset key answers.
  ///
  /// Setting `.test` or `.preview` starts a fresh cache of default values, so each `TestStore`
  /// gets its own test values (an incrementing UUID generator starts again at zero); `.live`
  /// values stay one instance per process.
  public var context: DependencyContext = .live {
    didSet {
      defaults = context == .live ? DefaultValueCache.shared : DefaultValueCache()
      revision = Revision()
    }
  }

  public init() {}

  /// Whether `other` is these very values, unchanged (not merely equal ones). O(1).
  @inlinable
  package func isSameStorage(as other: Self) -> Bool {
    revision === other.revision
  }

  @usableFromInline
  final class Revision: Sendable {
    @usableFromInline init() {}
  }

  /// The value for `key`: the one set in these values, else the key's default for ``context``.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = storage[ObjectIdentifier(key)] as? Key.Value {
        return value
      }
      return defaults.value(for: key, context: context)
    }
    set {
      storage[ObjectIdentifier(key)] = newValue
    }
  }
}

/// Default values are computed once per key and context and cache, so a `liveValue` that owns
/// resources is a single instance for the process.
private final class DefaultValueCache: Sendable {
  static let shared = DefaultValueCache()

  private struct CacheKey: Hashable {
    let key: ObjectIdentifier
    let context: DependencyContext
  }

  private let values = LockIsolated<[CacheKey: any Sendable]>([:])

  func value<Key: DependencyKey>(for key: Key.Type, context: DependencyContext) -> Key.Value {
    let cacheKey = CacheKey(key: ObjectIdentifier(key), context: context)
    if let cached = values.withValue({ $0[cacheKey] }) as? Key.Value {
      return cached
    }
    // Computed outside the lock: a default may itself read dependencies or report an issue.
    let value: Key.Value
    switch context {
    case .live: value = Key.liveValue
    case .preview: value = Key.previewValue
    case .test: value = Key.testValue
    }
    return values.withValue { cache in
      if let raced = cache[cacheKey] as? Key.Value { return raced }
      cache[cacheKey] = value
      return value
    }
  }
}
