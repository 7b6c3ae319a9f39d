/// A key for a value in ``DependencyValues``.
///
/// Conform a client type to `DependencyKey` with `Value == Self` to register it by type, then
/// install it with the type-keyed ``Reducer/dependency(_:)`` modifier:
///
/// ```swift
/// struct AuthoringClient: DependencyKey {
///   var validate: @Sendable (Grant) async throws -> AuthoringContext
///   static let liveValue = AuthoringClient(validate: { … })
///   static let testValue = AuthoringClient(validate: unimplemented("AuthoringClient.validate"))
/// }
///
/// EventApplication().dependency(authoringClient)
/// ```
///
/// A key that does not supply a `testValue` reports an issue naming the dependency the first
/// time a test reads it, then answers its `previewValue` (by default the `liveValue`).
public protocol DependencyKey<Value> {
  associatedtype Value: Sendable = Self
  /// The value used when the app runs.
  static var liveValue: Value { get }
  /// The value used in tests (``DependencyContext/test``).
  static var testValue: Value { get }
  /// The value used in previews; defaults to `liveValue`.
  static var previewValue: Value { get }
}

extension DependencyKey {
  public static var previewValue: Value { liveValue }

  public static var testValue: Value {
    reportIssue(
      """
      @Dependency(\(Self.self)) has no test value, and a test read it. Give the key a \
      `testValue`, or override it in this test with `withDependencies` or `.dependency(…)`.
      """
    )
    return previewValue
  }
}

/// Which flavour of values unset dependencies take.
public enum DependencyContext: Sendable, Hashable {
  case live
  case preview
  case test
}
