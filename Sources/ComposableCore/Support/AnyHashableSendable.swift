/// A type-erased hashable, sendable value.
///
/// `AnyHashable` is not `Sendable`, so identifiers that cross isolation domains (effect
/// cancellation ids, scope path components) are wrapped in this instead. Values compare and
/// hash as `AnyHashable` compares and hashes them (`7` equals `UInt8(7)` and `Optional(7)`),
/// but without making an `AnyHashable` for the usual ids: a value of a type that `AnyHashable`
/// keeps as it is (your structs, enums, strings, classes) is compared with its own `==` when
/// the other value has the same type (no dynamic cast), and hashed with its own
/// `hash(into:)`. Other values (numbers, optionals, values of different types) are compared
/// through `AnyHashable`.
public struct AnyHashableSendable: Hashable, Sendable, CustomStringConvertible {
  private let base: any Hashable & Sendable
  /// Whether `AnyHashable` keeps `base` as it is: compares it with its own `==` (against a
  /// value of the same type) and hashes it with its own `hash(into:)`.
  private let isKeptAsItIs: Bool

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
      self.base = base
      // The dynamic type, as `AnyHashable` asks the value (a subclass may differ from `Base`).
      self.isKeptAsItIs = Self.isKeptAsItIs(type(of: base))
    }
  }

  /// Whether `AnyHashable` keeps values of `type` as they are: not when the type has a custom
  /// representation (numbers, sets, dictionaries, `AnyHashable`, some Foundation classes), nor
  /// for an optional (whose wrapped value may have one). One runtime conformance check of the
  /// type (whether it is an optional is read from its metadata), no cast of the value.
  private static func isKeptAsItIs<Base>(_ type: Base.Type) -> Bool {
    !_isOptional(type) && !(type is any _HasCustomAnyHashableRepresentation.Type)
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.isKeptAsItIs && rhs.isKeptAsItIs, let equal = lhs.base.isEqual(toSameType: rhs.base) {
      return equal
    }
    return AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    if isKeptAsItIs {
      base.hash(into: &hasher)
    } else {
      AnyHashable(base).hash(into: &hasher)
    }
  }

  public var description: String {
    // As `AnyHashable` shows it: an optional or a number as its canonical value.
    isKeptAsItIs ? String(describing: base) : String(describing: AnyHashable(base).base)
  }
}

extension Hashable {
  /// `self == other` when `other` has the same type as `self`; `nil` otherwise.
  fileprivate func isEqual(toSameType other: any Hashable) -> Bool? {
    func compare<Other: Hashable>(_ other: Other) -> Bool? {
      guard Other.self == Self.self else { return nil }
      return self == unsafeBitCast(other, to: Self.self)
    }
    return compare(other)
  }
}
