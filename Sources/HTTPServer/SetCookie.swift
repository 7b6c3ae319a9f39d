/// A `Set-Cookie` header value a handler sends.
///
/// ```swift
/// var response = HTTPServerResponse.text("signed in")
/// response.setCookie(SetCookie(name: "session", value: token, maxAge: 3600, httpOnly: true))
/// ```
///
/// For deliberately odd or malformed cookies (tests), add the raw header instead:
/// `response.headers.add("Set-Cookie", "broken")`.
public struct SetCookie: Sendable, Hashable {
  public var name: String
  public var value: String
  public var path: String?
  public var domain: String?
  /// Seconds until the cookie expires; 0 or less deletes it.
  public var maxAge: Int?
  public var secure: Bool
  public var httpOnly: Bool
  /// `Strict`, `Lax` or `None`.
  public var sameSite: String?

  public init(
    name: String, value: String, path: String? = "/", domain: String? = nil, maxAge: Int? = nil,
    secure: Bool = false, httpOnly: Bool = false, sameSite: String? = nil
  ) {
    self.name = name
    self.value = value
    self.path = path
    self.domain = domain
    self.maxAge = maxAge
    self.secure = secure
    self.httpOnly = httpOnly
    self.sameSite = sameSite
  }

  /// A cookie that deletes `name` at `path` (`Max-Age=0`).
  public static func deletion(of name: String, path: String? = "/") -> SetCookie {
    SetCookie(name: name, value: "", path: path, maxAge: 0)
  }

  /// The header value, e.g. `session=abc; Path=/; Max-Age=3600; HttpOnly`.
  public var headerValue: String {
    var parts = ["\(name)=\(value)"]
    if let path { parts.append("Path=\(path)") }
    if let domain { parts.append("Domain=\(domain)") }
    if let maxAge { parts.append("Max-Age=\(maxAge)") }
    if secure { parts.append("Secure") }
    if httpOnly { parts.append("HttpOnly") }
    if let sameSite { parts.append("SameSite=\(sameSite)") }
    return parts.joined(separator: "; ")
  }
}
