/// A deterministic random number generator (SplitMix64): the same seed gives the same sequence
/// on every run, for tests and reproducible simulations. Not for cryptography.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// let first = Int.random(in: 1...6, using: &generator)
/// ```
///
/// The numbers a standard-library API such as `Int.random(in:using:)` derives from it may
/// change with the Swift toolchain; the raw `next()` sequence does not.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
