/// A type-erased hashable, sendable value.
///
/// `AnyHashable` is not `Sendable`, so identifiers that cross isolation domains (effect
/// cancellation ids, scope path components) are wrapped in this instead.
public struct AnyHashableSendable: Hashable, Sendable, CustomStringConvertible {
  /// The wrapped value.
  public let base: any Hashable & Sendable

  /// Wraps `base`. Wrapping an `AnyHashableSendable` again unwraps it first, so equality is
  /// never defeated by double wrapping.
  public init(_ base: some Hashable & Sendable) {
    if let already = base as? AnyHashableSendable {
      self = already
    } else {
      self.base = base
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    AnyHashable(base).hash(into: &hasher)
  }

  public var description: String { String(describing: base) }
}
