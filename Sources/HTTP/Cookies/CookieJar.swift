import Foundation

/// An in-memory cookie store that follows RFC 6265 (§5.3 storage, §5.4 retrieval) with the
/// secure-origin rules of RFC 6265bis. It never touches disk.
///
/// ```swift
/// var jar = CookieJar()
/// jar.receive(["session=abc; Path=/; Max-Age=3600; HttpOnly"], from: url, at: .now)
/// jar.cookieHeader(for: url, at: .now)   // "session=abc"
/// ```
///
/// `Max-Age` is honoured with or without `Version=1` (FoundationNetworking's jar ignores it
/// without), and wins over `Expires`; `Max-Age<=0` or a past `Expires` deletes. A `Domain`
/// attribute must cover the host that set it (no public-suffix list: a jar belongs to one
/// server's session). `Secure` cookies are sent only over https and cannot be set or
/// replaced over http; a `__Secure-` or `__Host-` name is stored only when the line keeps
/// its prefix's promise (RFC 6265bis §4.1.3). `HttpOnly` and `SameSite` are kept. The jar holds at most
/// ``maximumCount`` cookies, dropping the oldest first.
public struct CookieJar: Sendable, Equatable {
  /// What became of one `Set-Cookie` line.
  public enum Receipt: Sendable, Hashable {
    case stored(name: String)
    /// It expired on arrival: any cookie it matched was removed.
    case deleted(name: String)
    case rejected(CookieRejection)
  }

  /// The most cookies kept (a hostile server cannot grow the jar without bound).
  public let maximumCount: Int
  private var stored: [Cookie] = []

  public init(maximumCount: Int = 200) {
    self.maximumCount = maximumCount
  }

  /// Every cookie held, expired or not, in the order they were first stored.
  public var cookies: [Cookie] { stored }

  /// Whether the jar holds no cookie.
  public var isEmpty: Bool { stored.isEmpty }

  /// Forgets every cookie (sign-out).
  public mutating func removeAll() {
    stored.removeAll()
  }

  /// Stores the cookies of one response from `url`, in order (a later line replaces an earlier
  /// one of the same name, domain and path).
  @discardableResult
  public mutating func receive(_ setCookieLines: [String], from url: URL, at now: Date)
    -> [Receipt]
  {
    stored.removeAll { $0.isExpired(at: now) }
    return setCookieLines.map { receive($0, from: url, at: now) }
  }

  private mutating func receive(_ text: String, from url: URL, at now: Date) -> Receipt {
    guard let host = Self.canonicalHost(of: url) else {
      return .rejected(.malformed("the response URL has no host"))
    }
    let line: SetCookieLine
    do {
      line = try SetCookieLine.parse(text)
    } catch {
      return .rejected(error)
    }
    let isSecureOrigin = Self.isSecure(url)
    var domain = host
    var isHostOnly = true
    if let attribute = line.domain {
      guard Self.domain(host, matches: attribute) else {
        return .rejected(.domainMismatch(domain: attribute, host: host))
      }
      domain = attribute
      // An address is no domain: `Domain=127.0.0.1` covers that address only.
      isHostOnly = Self.isIPAddress(attribute)
    }
    if line.isSecure && !isSecureOrigin { return .rejected(.secureOverInsecureConnection) }
    if let prefix = Self.brokenPrefix(of: line, fromSecureOrigin: isSecureOrigin) {
      return .rejected(.prefixRuleBroken(prefix: prefix))
    }
    let path = line.path ?? Self.defaultPath(of: url)
    if !line.isSecure && !isSecureOrigin
      && stored.contains(where: {
        $0.isSecure && $0.name == line.name
          && (Self.domain($0.domain, matches: domain) || Self.domain(domain, matches: $0.domain))
          && Self.path(path, matches: $0.path)
      })
    {
      return .rejected(.wouldOverwriteSecureCookie)
    }
    let expires: Date? =
      if let maxAge = line.maxAge {
        maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(maxAge))
      } else {
        line.expires
      }
    let existing = stored.firstIndex {
      $0.name == line.name && $0.domain == domain && $0.path == path
    }
    if let expires, expires <= now {
      if let existing { stored.remove(at: existing) }
      return .deleted(name: line.name)
    }
    let cookie = Cookie(
      name: line.name, value: line.value, domain: domain, isHostOnly: isHostOnly, path: path,
      expires: expires, isSecure: line.isSecure, isHTTPOnly: line.isHTTPOnly,
      sameSite: line.sameSite, created: existing.map { stored[$0].created } ?? now)
    if let existing {
      stored[existing] = cookie
    } else {
      stored.append(cookie)
      if stored.count > maximumCount { stored.removeFirst(stored.count - maximumCount) }
    }
    return .stored(name: line.name)
  }

  /// The cookies to send to `url` at `now`, most specific path first, then oldest first
  /// (§5.4).
  public func cookies(for url: URL, at now: Date) -> [Cookie] {
    guard let host = Self.canonicalHost(of: url) else { return [] }
    let secure = Self.isSecure(url)
    let path = Self.requestPath(of: url)
    let matching = stored.enumerated().filter { _, cookie in
      !cookie.isExpired(at: now)
        && (cookie.isHostOnly ? host == cookie.domain : Self.domain(host, matches: cookie.domain))
        && Self.path(path, matches: cookie.path)
        && (!cookie.isSecure || secure)
    }
    return matching.sorted { left, right in
      if left.element.path.count != right.element.path.count {
        return left.element.path.count > right.element.path.count
      }
      if left.element.created != right.element.created {
        return left.element.created < right.element.created
      }
      return left.offset < right.offset
    }.map(\.element)
  }

  /// The `Cookie` header value for `url` at `now`, or `nil` when no cookie applies.
  public func cookieHeader(for url: URL, at now: Date) -> String? {
    let cookies = cookies(for: url, at: now)
    guard !cookies.isEmpty else { return nil }
    return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  /// The live, unexpired cookie named `name` that would be sent to `url`, if any.
  public func cookie(named name: String, for url: URL, at now: Date) -> Cookie? {
    cookies(for: url, at: now).first { $0.name == name }
  }

  /// The name prefix whose promise `line` breaks, if any (RFC 6265bis §4.1.3, matched without
  /// regard to case as §5.7 says): `__Secure-` needs `Secure` from a secure origin; `__Host-`
  /// also needs no `Domain` attribute and `Path=/`.
  private static func brokenPrefix(of line: SetCookieLine, fromSecureOrigin secure: Bool)
    -> String?
  {
    let name = line.name.lowercased()
    if name.hasPrefix("__secure-"), !(line.isSecure && secure) { return "__Secure-" }
    if name.hasPrefix("__host-"),
      !(line.isSecure && secure && line.domain == nil && line.path == "/")
    {
      return "__Host-"
    }
    return nil
  }

  // MARK: RFC 6265 §5.1 matching

  static func canonicalHost(of url: URL) -> String? {
    guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return host
  }

  /// The path as sent, still percent-encoded and with its trailing `/` (`URL.path` drops it).
  private static func requestPath(of url: URL) -> String {
    let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
    return path.isEmpty ? "/" : path
  }

  private static func isSecure(_ url: URL) -> Bool {
    let scheme = url.scheme?.lowercased()
    return scheme == "https" || scheme == "wss"
  }

  static func isIPAddress(_ host: String) -> Bool {
    host.contains(":")
      || (host.split(separator: ".").count == 4
        && host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
  }

  /// §5.1.3: identical, or `host` ends with `.domain` and is not an IP address.
  static func domain(_ host: String, matches domain: String) -> Bool {
    host == domain || (!isIPAddress(host) && host.hasSuffix("." + domain))
  }

  /// §5.1.4: identical, or `cookiePath` is a prefix ending at a `/` boundary.
  static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
    guard requestPath.hasPrefix(cookiePath) else { return false }
    return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
      || requestPath.dropFirst(cookiePath.count).first == "/"
  }

  /// §5.1.4: the request path up to, not including, its last `/`; `/` when that is empty.
  static func defaultPath(of url: URL) -> String {
    let path = requestPath(of: url)
    guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex
    else { return "/" }
    return String(path[..<last])
  }
}
