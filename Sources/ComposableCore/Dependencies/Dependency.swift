/// Reads a dependency from the values in force for the current task.
///
/// ```swift
/// struct Feature: Reducer {
///   @Dependency(\.clock) var clock
///   @Dependency(WorkspaceClient.self) var workspace
/// }
/// ```
///
/// The value is read on every access, so a reducer sees the values its store (and any
/// `.dependency` modifiers above it) installed, and an effect sees the values captured when its
/// action was reduced.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  private let read: @Sendable (DependencyValues) -> Value

  /// Reads the value at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.read = { $0[keyPath: keyPath] }
  }

  /// Reads the value registered under the type-keyed `key`.
  public init<Key: DependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.read = Self.reader(for: key)
  }

  private static func reader<Key: DependencyKey>(
    for _: Key.Type
  ) -> @Sendable (DependencyValues) -> Value where Key.Value == Value {
    // A @Sendable closure may not capture the key's conformance (SendableMetatypes); the plain
    // closure reads only immutable metadata.
    nonisolated(unsafe) let read = { (values: DependencyValues) in values[Key.self] }
    return { read($0) }
  }

  public var wrappedValue: Value {
    read(DependencyValues.current)
  }
}
