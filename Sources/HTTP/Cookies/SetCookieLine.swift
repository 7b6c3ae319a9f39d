import Foundation

/// One `Set-Cookie` line parsed by the algorithm of RFC 6265 §5.2, before the jar decides
/// whether to store it.
struct SetCookieLine: Sendable, Equatable {
  var name: String
  var value: String
  var expires: Date?
  /// Seconds; takes precedence over `expires` (§5.3 step 3).
  var maxAge: Int?
  var domain: String?
  var path: String?
  var isSecure = false
  var isHTTPOnly = false
  var sameSite: Cookie.SameSite?

  /// Longest name plus value kept (RFC 6265bis §5.6: 4096 octets).
  static let maxNameValueBytes = 4096
  /// Longest attribute value kept (RFC 6265bis §5.6: 1024 octets); longer ones are ignored.
  static let maxAttributeValueBytes = 1024

  /// Parses `text`, or says why the whole line must be ignored.
  static func parse(_ text: String) throws(CookieRejection) -> SetCookieLine {
    guard !text.unicodeScalars.contains(where: isForbiddenControl) else {
      throw .malformed("a control character")
    }
    var parts = text.split(separator: ";", omittingEmptySubsequences: false)
    let pair = parts.removeFirst()
    guard let equals = pair.firstIndex(of: "=") else { throw .malformed("no name=value pair") }
    let name = trim(pair[..<equals])
    let value = trim(pair[pair.index(after: equals)...])
    guard !name.isEmpty else { throw .malformed("an empty name") }
    guard name.unicodeScalars.allSatisfy(isTokenScalar) else {
      throw .malformed("a name that is not a token")
    }
    guard isCookieValue(value) else { throw .malformed("a value outside the cookie grammar") }
    guard name.utf8.count + value.utf8.count <= maxNameValueBytes else {
      throw .tooLarge(limit: maxNameValueBytes)
    }
    var line = SetCookieLine(name: name, value: value)
    for attribute in parts {
      let split = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let attributeValue = split.count > 1 ? trim(split[1]) : ""
      guard attributeValue.utf8.count <= maxAttributeValueBytes else { continue }
      line.apply(trim(split[0]).lowercased(), attributeValue)
    }
    return line
  }

  /// Later attributes of the same name win (§5.3 "the last attribute … with that name").
  private mutating func apply(_ attribute: String, _ value: String) {
    switch attribute {
    case "expires":
      if let date = CookieDate.parse(value) { expires = date }
    case "max-age":
      if let seconds = Self.parseMaxAge(value) { maxAge = seconds }
    case "domain":
      if !value.isEmpty {
        domain = (value.hasPrefix(".") ? String(value.dropFirst()) : value).lowercased()
      }
    case "path":
      path = value.hasPrefix("/") ? value : nil
    case "secure":
      isSecure = true
    case "httponly":
      isHTTPOnly = true
    case "samesite":
      if let policy = Cookie.SameSite.allCases.first(where: {
        $0.rawValue.lowercased() == value.lowercased()
      }) {
        sameSite = policy
      }
    default:
      break  // Version, Comment, Priority, … carry nothing this jar needs.
    }
  }

  /// `-?DIGIT+` (§5.2.2); anything else ignores the attribute. Huge values are clamped.
  private static func parseMaxAge(_ text: String) -> Int? {
    let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    let magnitude = Int(digits.prefix(12)) ?? 0
    let clamped = digits.count > 12 ? 999_999_999_999 : magnitude
    return text.hasPrefix("-") ? -clamped : clamped
  }

  /// CTLs other than horizontal tab make the whole line invalid (RFC 6265bis §5.6 step 2).
  private static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar.value != 0x09) || scalar.value == 0x7F
  }

  private static func trim(_ text: Substring) -> String {
    text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
  }

  /// Splits a header value in which a client library joined several `Set-Cookie` lines with
  /// commas (FoundationNetworking and Apple's URLSession both do): a comma starts a new line
  /// only when what follows looks like `name=`, so the comma in an `Expires` date stays.
  static func splitCombined(_ header: String) -> [String] {
    var lines: [String] = []
    var current = ""
    var rest = header[...]
    while let comma = rest.firstIndex(of: ",") {
      let after = rest[rest.index(after: comma)...]
      current += rest[..<comma]
      if startsNewCookie(after) {
        lines.append(current)
        current = ""
      } else {
        current += ","
      }
      rest = after
    }
    current += rest
    lines.append(current)
    return lines.map { trim($0[...]) }.filter { !$0.isEmpty }
  }

  private static func startsNewCookie(_ text: Substring) -> Bool {
    let candidate = text.drop { $0 == " " || $0 == "\t" }
    guard let equals = candidate.firstIndex(of: "=") else { return false }
    let name = candidate[..<equals]
    return !name.isEmpty && name.unicodeScalars.allSatisfy(isTokenScalar)
  }

  /// RFC 6265 §4.1.1 `cookie-value`: cookie-octets, optionally in double quotes. No space,
  /// comma, semicolon, backslash or quote inside: so two lines that URLSession joined with a
  /// comma, and failed to split, are refused rather than stored as one garbled value.
  private static func isCookieValue(_ value: String) -> Bool {
    var octets = Substring(value)
    if octets.count >= 2, octets.hasPrefix("\""), octets.hasSuffix("\"") {
      octets = octets.dropFirst().dropLast()
    }
    return octets.unicodeScalars.allSatisfy { scalar in
      scalar.value >= 0x21 && scalar.value <= 0x7E && scalar != "\"" && scalar != ","
        && scalar != ";" && scalar != "\\"
    }
  }

  /// RFC 9110 `tchar`: a cookie name is a token (RFC 6265 §4.1.1), so it never holds the
  /// comma that joins lines, a space, a quote or a separator.
  private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F
      && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(scalar)
  }
}

/// Why a `Set-Cookie` line was not stored. Never names the cookie's value.
public enum CookieRejection: Error, Hashable, Sendable, CustomStringConvertible {
  /// The line does not follow the cookie grammar at all.
  case malformed(String)
  /// Name and value together exceed the limit.
  case tooLarge(limit: Int)
  /// Its `Domain` attribute does not cover the host that set it.
  case domainMismatch(domain: String, host: String)
  /// A `Secure` cookie was set over plain http.
  case secureOverInsecureConnection
  /// A plain-http response tried to replace or shadow a `Secure` cookie.
  case wouldOverwriteSecureCookie
  /// A `__Secure-` or `__Host-` name without what its prefix promises (RFC 6265bis §4.1.3):
  /// `Secure` from a secure origin, and for `__Host-` also no `Domain` and `Path=/`.
  case prefixRuleBroken(prefix: String)

  public var description: String {
    switch self {
    case .malformed(let reason): "malformed Set-Cookie (\(reason))"
    case .tooLarge(let limit): "cookie larger than \(limit) bytes"
    case .domainMismatch(let domain, let host): "Domain=\(domain) does not cover \(host)"
    case .secureOverInsecureConnection: "a Secure cookie set over http"
    case .wouldOverwriteSecureCookie: "an http response may not replace a Secure cookie"
    case .prefixRuleBroken(let prefix):
      prefix == "__Host-"
        ? "a __Host- cookie must be Secure, from https, without Domain, with Path=/"
        : "a __Secure- cookie must be Secure, from https"
    }
  }
}
