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
  /// The values in force for the current task: the root values, unless a scope installed
  /// others — `withDependencies(_:operation:)`, a ``Reducer/dependency(_:_:)`` modifier, a
  /// store reducing with the values it was made with, an effect with those of its reduce.
  ///
  /// Read-only: change values for a scope with `withDependencies(_:operation:)`.
  ///
  /// ```swift
  /// let clock = DependencyValues.current.clock
  /// ```
  public static var current: DependencyValues { installed }

  /// The values no scope installed: the default of ``current``, alive for the process.
  private static let root = DependencyValues()

  /// The installed values. Only ``install(_:operation:)`` binds it, together with
  /// `installedIdentity`.
  @TaskLocal private static var installed = root

  /// The identity of `installed`'s object, bound with it. A task-local of a trivial type is read
  /// without retaining anything, so "are these values in force?" costs a third of reading them.
  /// Identities cannot be confused: the object is alive while it is installed (`installed`
  /// holds it, and a child task inherits both bindings), and so are the values compared.
  @TaskLocal private static var installedIdentity = ObjectIdentifier(root.values)

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

  /// Whether these very values (not merely equal ones) are ``current``: one read of a
  /// trivial task-local and a compare, cheaper than reading ``current``.
  @usableFromInline
  package var areInstalled: Bool {
    Self.installedIdentity == ObjectIdentifier(values)
  }

  /// Runs `operation` with `values` as ``current``. Every scope that changes the values goes
  /// through here (or its async twin), so the two task-locals always agree. Values already in
  /// force are not bound again.
  @usableFromInline
  package static func install<R>(_ values: Self, operation: () throws -> R) rethrows -> R {
    if values.areInstalled { return try operation() }
    return try $installed.withValue(values) {
      try $installedIdentity.withValue(ObjectIdentifier(values.values), operation: operation)
    }
  }

  /// Runs the async `operation` with `values` as ``current``.
  @usableFromInline
  package static func install<R>(
    _ values: Self,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
  ) async rethrows -> R {
    if values.areInstalled { return try await operation() }
    return try await $installed.withValue(
      values,
      operation: {
        try await $installedIdentity.withValue(
          ObjectIdentifier(values.values), operation: operation, isolation: isolation)
      },
      isolation: isolation)
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
