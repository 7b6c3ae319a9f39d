import Foundation

/// A cookie as the ``CookieJar`` keeps it (RFC 6265 §5.3).
///
/// Its value is a secret: `description`, `debugDescription` and its mirror (`dump`) show the
/// name and attributes, never the value.
public struct Cookie: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The `SameSite` attribute, kept as the server sent it (this client is not a browser: every
  /// request it makes is first-party, so the attribute restricts nothing here).
  public enum SameSite: String, Sendable, Hashable, CaseIterable {
    case strict = "Strict"
    case lax = "Lax"
    case none = "None"
  }

  public let name: String
  /// The value to send back. Never log it.
  public let value: String
  /// The host (host-only cookie) or domain (domain cookie) it belongs to, lowercased.
  public let domain: String
  /// Whether it is sent to exactly ``domain`` only (no `Domain` attribute was given).
  public let isHostOnly: Bool
  public let path: String
  /// When it expires; `nil` for a session cookie, which lives until the jar is emptied.
  public let expires: Date?
  /// Sent only over https.
  public let isSecure: Bool
  /// Not for scripts; sent with HTTP requests like any other cookie.
  public let isHTTPOnly: Bool
  public let sameSite: SameSite?
  /// When it was first stored (a replacement keeps the original's).
  public let created: Date

  public init(
    name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
    expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false,
    sameSite: SameSite? = nil, created: Date
  ) {
    self.name = name
    self.value = value
    self.domain = domain
    self.isHostOnly = isHostOnly
    self.path = path
    self.expires = expires
    self.isSecure = isSecure
    self.isHTTPOnly = isHTTPOnly
    self.sameSite = sameSite
    self.created = created
  }

  /// Whether it has expired at `date`.
  public func isExpired(at date: Date) -> Bool {
    expires.map { $0 <= date } ?? false
  }

  public var description: String {
    var parts = [
      "\(name)=<redacted>", "\(isHostOnly ? "Host" : "Domain")=\(domain)", "Path=\(path)",
    ]
    if let expires { parts.append("Expires=\(Int(expires.timeIntervalSince1970))") }
    if isSecure { parts.append("Secure") }
    if isHTTPOnly { parts.append("HttpOnly") }
    if let sameSite { parts.append("SameSite=\(sameSite.rawValue)") }
    return parts.joined(separator: "; ")
  }

  public var debugDescription: String { "Cookie(\(description))" }

  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "name": name, "value": "<redacted>", "domain": domain, "path": path,
        "expires": expires as Any, "isSecure": isSecure, "isHTTPOnly": isHTTPOnly,
      ])
  }
}
