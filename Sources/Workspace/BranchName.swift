/// The name of a branch in the integrator's storage (a Git branch, a Fossil branch, a
/// published catalogue channel…).
///
/// ```swift
/// store.send(.selectBranch("published"))
/// ```
public struct BranchName: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The branch's name as the integrator spells it.
  public var rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates a branch name.
  public init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  public init(stringLiteral value: String) {
    self.rawValue = value
  }

  /// Encoded as a single string.
  public init(from decoder: any Decoder) throws {
    self.rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public var description: String { rawValue }
}
