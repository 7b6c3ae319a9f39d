import WorkspaceHTTP

/// How a ``FossilSession`` talks to its server.
///
/// ```swift
/// let session = FossilSession(
///   baseURL: URL(string: "https://fossil.example.com/catalogue")!,
///   configuration: FossilSessionConfiguration(
///     timeout: .seconds(20), logger: HTTPLogger { print($0) }))
/// ```
public struct FossilSessionConfiguration: Sendable {
  /// The longest the server may stay silent during one request.
  public var timeout: Duration
  /// Where redacted request lines go (never a password, token, cookie value or body).
  public var logger: HTTPLogger?
  /// The CSRF proofs every write carries: Fossil 2.21's same-origin `Referer` (and its `csrf`
  /// form field on HTML forms). Only a test that proves what Fossil does without them changes
  /// it.
  public var csrf: CSRFPolicy

  public init(
    timeout: Duration = .seconds(30), logger: HTTPLogger? = nil, csrf: CSRFPolicy = .fossil
  ) {
    self.timeout = timeout
    self.logger = logger
    self.csrf = csrf
  }
}
