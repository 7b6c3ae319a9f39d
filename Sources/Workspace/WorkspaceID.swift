/// Identifies one workspace: the scope of its state, independent of any authoring grant.
///
/// Workspace state is keyed by this id, not by the lifetime of a grant: losing a grant cancels
/// the workspace's tasks but keeps an already ready session for the same id.
///
/// ```swift
/// let state = WorkspaceState<EventSource>(id: "event-catalogue")
/// ```
public struct WorkspaceID: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The identifier's text.
  public var rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// Creates an id from its text.
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
