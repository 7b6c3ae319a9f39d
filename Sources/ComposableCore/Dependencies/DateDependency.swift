import Foundation

extension DependencyValues {
  /// Tells the current date. Live: the system's `Date()`. Tests: a constant,
  /// 1970-01-01 00:00:00 UTC, unless the test sets another:
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
  ///   $0.date = .constant(Date(timeIntervalSince1970: 1_700_000_000))
  /// }
  /// store.dependencies.date.now = Date(timeIntervalSince1970: 1_700_000_060)  // later sends
  /// ```
  public var date: DateGenerator {
    get { self[DateGenerator.self] }
    set { self[DateGenerator.self] = newValue }
  }
}

/// A source of the current date, as a dependency.
///
/// ```swift
/// @Dependency(\.date) var date
/// state.savedAt = date.now   // or date()
/// ```
public struct DateGenerator: Sendable, DependencyKey {
  private var generate: @Sendable () -> Date

  /// A generator that answers `generate()` each time it is asked.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date. Setting it makes the generator answer that date from then on.
  public var now: Date {
    get { generate() }
    set { generate = { newValue } }
  }

  /// The current date.
  public func callAsFunction() -> Date { generate() }

  /// A generator that always answers `date`.
  public static func constant(_ date: Date) -> Self {
    Self { date }
  }

  /// The system's date.
  public static let liveValue = DateGenerator { Date() }

  /// 1970-01-01 00:00:00 UTC, always: tests are deterministic without setting it.
  public static let testValue = DateGenerator.constant(Date(timeIntervalSince1970: 0))
}
