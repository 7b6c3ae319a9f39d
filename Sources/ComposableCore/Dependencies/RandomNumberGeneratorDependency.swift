extension DependencyValues {
  /// Lends a random number generator for a moment. Live: the system's generator. Tests: a
  /// ``SeededRandomNumberGenerator`` with seed 0, fresh for each test store, so a test sees the
  /// same numbers on every run; set another with `$0.withRandomNumberGenerator =
  /// WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 42))`.
  ///
  /// ```swift
  /// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  /// let roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
  /// ```
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGenerator.self] }
    set { self[WithRandomNumberGenerator.self] = newValue }
  }
}

/// A random number generator shared by everything that reads the dependency, lent to one
/// caller at a time (the generator is guarded by a lock, so effects on any thread may use it).
public struct WithRandomNumberGenerator: Sendable, DependencyKey {
  private let generator: LockIsolated<any RandomNumberGenerator>

  /// Lends `generator`; its state advances with every use, whoever the caller.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    self.generator = LockIsolated(generator)
  }

  /// Runs `work` with exclusive use of the generator and returns its result.
  public func callAsFunction<R>(
    _ work: (_ generator: inout any RandomNumberGenerator) throws -> R
  ) rethrows -> R {
    try generator.withValue { try work(&$0) }
  }

  /// The system's generator.
  public static let liveValue = WithRandomNumberGenerator(SystemRandomNumberGenerator())

  /// A generator seeded with 0, one per test store (see ``DependencyValues/context``).
  public static var testValue: WithRandomNumberGenerator {
    WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 0))
  }
}
