/// A name or id that is a string underneath: it is written as a string literal, prints as its
/// text, and (through `RawRepresentable`'s Codable support) encodes as a single string.
public protocol StringIdentifier: RawRepresentable, Hashable, Sendable, Codable,
  ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
  init(rawValue: String)
}

extension StringIdentifier {
  /// Wraps `rawValue`.
  public init(_ rawValue: String) {
    self.init(rawValue: rawValue)
  }

  public init(stringLiteral value: String) {
    self.init(rawValue: value)
  }

  public var description: String { rawValue }
}
