/// An HTTP request method.
///
/// ```swift
/// let method: HTTPMethod = .post
/// method.isSafe   // false: a mutation, so the session's CSRF policy applies
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The method's token, e.g. `"GET"`.
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  public init(stringLiteral value: String) {
    self.rawValue = value
  }

  public static let get: Self = "GET"
  public static let head: Self = "HEAD"
  public static let post: Self = "POST"
  public static let put: Self = "PUT"
  public static let patch: Self = "PATCH"
  public static let delete: Self = "DELETE"
  public static let options: Self = "OPTIONS"

  /// Whether the method is safe (RFC 9110 §9.2.1): it changes nothing on the server, so it
  /// carries no CSRF proof. Every other method is a mutation.
  public var isSafe: Bool {
    ["GET", "HEAD", "OPTIONS", "TRACE"].contains(rawValue)
  }

  public var description: String { rawValue }
}
