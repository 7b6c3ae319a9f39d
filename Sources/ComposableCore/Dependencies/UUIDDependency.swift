import Foundation

extension DependencyValues {
  /// Makes UUIDs. Live: random. Tests: `UUIDGenerator.incrementing`, which yields
  /// 00000000-0000-0000-0000-000000000000, …-000000000001, … in order, per test store.
  public var uuid: UUIDGenerator {
    get { self[UUIDGenerator.self] }
    set { self[UUIDGenerator.self] = newValue }
  }
}

/// A source of UUIDs, as a dependency.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let key = uuid()
/// ```
public struct UUIDGenerator: Sendable, DependencyKey {
  private let generate: @Sendable () -> UUID

  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  public func callAsFunction() -> UUID { generate() }

  /// Random UUIDs.
  public static let liveValue = UUIDGenerator { UUID() }

  /// An incrementing sequence; each test store gets its own (see ``DependencyValues/context``).
  public static var testValue: UUIDGenerator { .incrementing }

  /// 00000000-0000-0000-0000-000000000000, then …0001, and so on: `UUID(0)`, `UUID(1)`, ….
  public static var incrementing: UUIDGenerator {
    let counter = LockIsolated(0)
    return UUIDGenerator {
      UUID(
        counter.withValue { count -> Int in
          defer { count += 1 }
          return count
        })
    }
  }
}
