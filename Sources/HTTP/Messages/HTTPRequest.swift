import Foundation

/// A request to the session's server: a path relative to its base URL, never a whole URL, so
/// a session's cookies and CSRF proofs only ever go to the server they belong to.
///
/// ```swift
/// let me = HTTPRequest.get("/v1/me")
/// let create = try HTTPRequest.post("/v1/proposals", body: .json(NewProposal(title: "Fix")))
/// let login = HTTPRequest.post("/login", body: .form(["name": "ada"]), access: .public)
/// ```
public struct HTTPRequest: Sendable, Hashable {
  /// Whether a request belongs to the signed-in session.
  public enum Access: Sendable, Hashable {
    /// A call of the session: refused while signed out, and a 401 (or the session's own
    /// end signal) ends the session.
    case session
    /// A call that works signed out (sign-in doors, token exchanges, public pages). It carries
    /// and receives cookies but never ends the session.
    case `public`
  }

  /// The request method; any but `GET`, `HEAD`, `OPTIONS`, `TRACE` carries CSRF proofs.
  public var method: HTTPMethod
  /// The path below the session's base URL, starting with `/`.
  public var path: String
  /// Query items, percent-encoded when sent (and redacted in logs).
  public var query: [URLQueryItem]
  /// Headers of this request, over the session's; `Cookie` is the jar's.
  public var headers: HTTPHeaders
  /// The body, with its content type.
  public var body: HTTPBody
  /// The longest the server may stay silent; `nil` takes the session's default.
  public var timeout: Duration?
  /// Whether it is a session call (the default) or a public one.
  public var access: Access

  public init(
    method: HTTPMethod, path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:],
    body: HTTPBody = .none, timeout: Duration? = nil, access: Access = .session
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.timeout = timeout
    self.access = access
  }

  /// A `GET` of `path`.
  public static func get(
    _ path: String, query: [URLQueryItem] = [], access: Access = .session
  ) -> HTTPRequest {
    HTTPRequest(method: .get, path: path, query: query, access: access)
  }

  /// A `POST` of `body` to `path`.
  public static func post(_ path: String, body: HTTPBody, access: Access = .session)
    -> HTTPRequest
  {
    HTTPRequest(method: .post, path: path, body: body, access: access)
  }

  /// The method and path, e.g. `POST /v1/proposals`: what error messages and logs name (never
  /// the query, which may carry a token).
  public var summary: String { "\(method) \(path)" }
}

/// A request body, encoded once when the request is built, so every retry sends the same
/// bytes.
public enum HTTPBody: Sendable, Hashable {
  case none
  /// Bytes with their content type.
  case bytes(Data, contentType: String)
  /// `application/x-www-form-urlencoded` fields, in order. A session whose CSRF policy adds
  /// a form field adds it to these.
  case form([FormField])

  /// One form field.
  public struct FormField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// `value` as JSON (`application/json`).
  public static func json(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws
    -> HTTPBody
  {
    .bytes(try encoder.encode(value), contentType: "application/json")
  }

  /// Form fields from a dictionary, sorted by name (for a fixed order).
  public static func form(_ fields: [String: String]) -> HTTPBody {
    .form(fields.sorted { $0.key < $1.key }.map { FormField($0.key, $0.value) })
  }

  /// The encoded bytes and content type (`nil` for ``none``).
  var encoded: (data: Data, contentType: String)? {
    switch self {
    case .none:
      return nil
    case .bytes(let data, let contentType):
      return (data, contentType)
    case .form(let fields):
      let text = fields.map { "\(Self.formEncode($0.name))=\(Self.formEncode($0.value))" }
        .joined(separator: "&")
      return (Data(text.utf8), "application/x-www-form-urlencoded")
    }
  }

  private static let formAllowed = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*")

  private static func formEncode(_ text: String) -> String {
    (text.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? "")
      .replacingOccurrences(of: "%20", with: "+")
  }
}
