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

  /// Every value and setting, in one immutable object replaced on every change: copying the
  /// values (each read of ``current``) is one reference, and "the same values" is an identity
  /// check.
  @usableFromInline var values = Values(storage: [:], context: .live)

  /// Which default (`liveValue`, `previewValue`, `testValue`) an unset key answers.
  ///
  /// Setting `.test` or `.preview` starts a fresh cache of default values, so each `TestStore`
  /// gets its own test values (an incrementing UUID generator starts again at zero); `.live`
  /// values stay one instance per process.
  public var context: DependencyContext {
    get { values.context }
    set { values = Values(storage: values.storage, context: newValue) }
  }

  public init() {}

  /// Whether `other` is these very values, unchanged (not merely equal ones). O(1).
  @inlinable
  package func isSameStorage(as other: Self) -> Bool {
    values === other.values
  }

  /// The value for `key`: the one set in these values, else the key's default for ``context``.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = values.storage[ObjectIdentifier(key)] as? Key.Value {
        return value
      }
      return values.defaults.value(for: key, context: values.context)
    }
    set {
      var storage = values.storage
      storage[ObjectIdentifier(key)] = newValue
      values = Values(storage: storage, context: values.context, defaults: values.defaults)
    }
  }

  @usableFromInline
  final class Values: Sendable {
    let storage: [ObjectIdentifier: any Sendable]
    let context: DependencyContext
    let defaults: DefaultValueCache

    /// `defaults`: the cache to keep; `nil` for the one `context` starts with.
    init(
      storage: [ObjectIdentifier: any Sendable], context: DependencyContext,
      defaults: DefaultValueCache? = nil
    ) {
      self.storage = storage
      self.context = context
      self.defaults =
        defaults ?? (context == .live ? DefaultValueCache.shared : DefaultValueCache())
    }
  }
}

/// Default values are computed once per key and context and cache, so a `liveValue` that owns
/// resources is a single instance for the process.
final class DefaultValueCache: Sendable {
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
