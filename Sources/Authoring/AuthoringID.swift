/// Names one ``Authoring`` feature: the key of its operations (``AuthoringOperation``).
///
/// An app with one Authoring never names it (`Authoring()` is ``main``). Features composed side
/// by side need distinct names; `AuthoringWorkspace` names its Authoring after its workspace.
///
/// ```swift
/// Authoring(id: "events")
/// ```
public struct AuthoringID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The name.
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  public init(stringLiteral value: String) {
    self.init(rawValue: value)
  }

  /// The name of `Authoring()`.
  public static let main: AuthoringID = "main"

  public var description: String { rawValue }
}
