import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How a server wants mutations proven to come from its own client. Safe methods (`GET`,
/// `HEAD`, `OPTIONS`, `TRACE`) carry no proof; every other method carries all of the
/// policy's proofs.
///
/// ```swift
/// // The Workspaces service: echo the csrf cookie as a header.
/// HTTPSessionConfiguration(csrf: .echoCookie("csrf", asHeader: "X-CSRF-Token"))
/// // Fossil 2.21: a same-origin Referer, and on HTML forms a `csrf` field made of the first
/// // ten characters of the login cookie.
/// HTTPSessionConfiguration(csrf: .fossil)
/// ```
public struct CSRFPolicy: Sendable {
  /// Which cookie a proof is made from.
  public enum CookieName: Sendable, Hashable, CustomStringConvertible {
    /// The cookie of exactly this name.
    case exactly(String)
    /// The first cookie whose name starts with this (Fossil's `fossil-<project code>`).
    case prefixed(String)

    func matches(_ name: String) -> Bool {
      switch self {
      case .exactly(let expected): name == expected
      case .prefixed(let prefix): name.hasPrefix(prefix)
      }
    }

    public var description: String {
      switch self {
      case .exactly(let name): name
      case .prefixed(let prefix): "\(prefix)*"
      }
    }
  }

  enum Proof: Sendable {
    case header(String, from: CookieName)
    case referer(URL?)
    case formField(String, from: CookieName, derive: @Sendable (String) -> String)
  }

  let proofs: [Proof]

  /// No proof at all.
  public static let none = CSRFPolicy(proofs: [])

  /// Sends the value of `cookie` as the header `header` on every mutation. A session mutation
  /// while the jar has no such cookie fails with
  /// ``HTTPSessionError/csrfTokenUnavailable(cookie:)`` before anything is sent; a public one
  /// (a sign-in door) goes without the header.
  public static func echoCookie(_ cookie: String = "csrf", asHeader header: String = "X-CSRF-Token")
    -> CSRFPolicy
  {
    CSRFPolicy(proofs: [.header(header, from: .exactly(cookie))])
  }

  /// Sends `Referer: <base>` on every mutation; `nil` takes the request's own origin plus `/`
  /// (`http://host:port/`). Give the server's base URL when it is served below a path.
  public static func sameOriginReferer(_ base: URL? = nil) -> CSRFPolicy {
    CSRFPolicy(proofs: [.referer(base)])
  }

  /// Adds the form field `field`, derived from the session cookie, to every mutation whose
  /// body is ``HTTPBody/form(_:)-enum.case`` (other bodies are left alone). A session form mutation
  /// while the jar has no such cookie fails with
  /// ``HTTPSessionError/csrfTokenUnavailable(cookie:)``; a public one goes without the field.
  public static func formField(
    _ field: String, fromCookie cookie: CookieName,
    derive: @escaping @Sendable (String) -> String = { $0 }
  ) -> CSRFPolicy {
    CSRFPolicy(proofs: [.formField(field, from: cookie, derive: derive)])
  }

  /// Every proof of every policy.
  public static func all(_ policies: CSRFPolicy...) -> CSRFPolicy {
    CSRFPolicy(proofs: policies.flatMap(\.proofs))
  }

  /// Fossil 2.21: a same-origin `Referer` on every mutation, and on form posts a `csrf` field
  /// holding the first 10 characters of the `fossil-<project code>` login cookie.
  public static var fossil: CSRFPolicy {
    .all(
      .sameOriginReferer(),
      .formField("csrf", fromCookie: .prefixed("fossil-")) { String($0.prefix(10)) })
  }

  /// Adds this policy's proofs to a mutation about to be sent to `url`; `cookies` are those
  /// the jar sends there. A proof the request already carries is kept: a `Referer` it sets
  /// (the page its form came from) and a form field of the proof's name (a token scraped from
  /// the server's own form, which a newer server derives otherwise). A proof whose cookie is missing fails a session call, and is left
  /// out of a public one (a sign-in door has no session to prove yet).
  func prove(
    _ request: inout URLRequest, body: inout HTTPBody, method: HTTPMethod, url: URL,
    cookies: [Cookie], access: HTTPRequest.Access
  ) throws(HTTPSessionError) {
    guard !method.isSafe else { return }
    func value(of name: CookieName) throws(HTTPSessionError) -> String? {
      if let cookie = cookies.first(where: { name.matches($0.name) }) { return cookie.value }
      guard access == .public else { throw .csrfTokenUnavailable(cookie: name.description) }
      return nil
    }
    for proof in proofs {
      switch proof {
      case .header(let header, let cookie):
        guard let token = try value(of: cookie) else { continue }
        request.setValue(token, forHTTPHeaderField: header)
      case .referer(let base):
        guard request.value(forHTTPHeaderField: "Referer") == nil else { continue }
        request.setValue(
          (base ?? Self.origin(of: url)).absoluteString, forHTTPHeaderField: "Referer")
      case .formField(let field, let cookie, let derive):
        guard case .form(var fields) = body, let token = try value(of: cookie),
          !fields.contains(where: { $0.name == field })
        else { continue }
        fields.append(HTTPBody.FormField(field, derive(token)))
        body = .form(fields)
      }
    }
  }

  private static func origin(of url: URL) -> URL {
    var components = URLComponents()
    components.scheme = url.scheme
    components.host = url.host
    components.port = url.port
    components.path = "/"
    return components.url ?? url
  }
}
