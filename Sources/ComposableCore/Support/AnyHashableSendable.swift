/// A type-erased hashable, sendable value.
///
/// `AnyHashable` is not `Sendable`, so identifiers that cross isolation domains (effect
/// cancellation ids, scope path components) are wrapped in this instead. The value is boxed
/// once, at wrapping; hashing and comparing reuse that box.
public struct AnyHashableSendable: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// Boxes only a `Sendable` value (see the initializer), so sharing it is safe.
  private let boxed: AnyHashable

  /// Wraps `base`. Wrapping an `AnyHashableSendable` again unwraps it first, so equality is
  /// never defeated by double wrapping.
  public init<Base: Hashable & Sendable>(_ base: Base) {
    // Type comparisons, not a cast of every id (which cost more than the rest of wrapping);
    // an optional one is unwrapped as a cast would.
    if Base.self == AnyHashableSendable.self {
      self = unsafeBitCast(base, to: AnyHashableSendable.self)
    } else if Base.self == AnyHashableSendable?.self, let already = base as? AnyHashableSendable {
      self = already
    } else {
      self.boxed = AnyHashable(base)
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.boxed == rhs.boxed
  }

  public func hash(into hasher: inout Hasher) {
    boxed.hash(into: &hasher)
  }

  public var description: String { String(describing: boxed.base) }
}
