import Foundation

/// How an ``HTTPSession`` treats its server.
///
/// ```swift
/// let configuration = HTTPSessionConfiguration(
///   csrf: .echoCookie("csrf", asHeader: "X-CSRF-Token"),
///   timeout: .seconds(20),
///   logger: HTTPLogger { print($0) })
/// ```
public struct HTTPSessionConfiguration: Sendable {
  /// The proofs every mutation carries.
  public var csrf: CSRFPolicy
  /// What, besides the app signing out, ends the session (default: a 401).
  public var sessionEnd: SessionEndDetector
  /// The longest a server may stay silent during a request (URLSession's request timeout: it
  /// restarts with every byte received). On Linux it is rounded up to whole seconds, because
  /// FoundationNetworking truncates it (a 0.3 s timeout would fire at once).
  public var timeout: Duration
  /// Headers sent with every request (e.g. `Accept`, `User-Agent`).
  public var headers: HTTPHeaders
  /// Where redacted log lines go; `nil` logs nothing.
  public var logger: HTTPLogger?
  /// The longest `Cookie` header a request may carry, in bytes (default 8 KiB, within what
  /// common servers accept in one header line); a request whose cookies would make it longer
  /// is not sent (``HTTPSessionError/cookieHeaderTooLarge(request:bytes:limit:)``).
  public var maximumCookieHeaderBytes: Int
  /// The most cookies the jar keeps.
  public var maximumCookieCount: Int
  /// The wall clock the jar reads for `Expires` and `Max-Age`.
  public var now: @Sendable () -> Date

  public init(
    csrf: CSRFPolicy = .none, sessionEnd: SessionEndDetector = .unauthorized,
    timeout: Duration = .seconds(30), headers: HTTPHeaders = [:], logger: HTTPLogger? = nil,
    maximumCookieCount: Int = 200, maximumCookieHeaderBytes: Int = 8 * 1024,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.maximumCookieHeaderBytes = maximumCookieHeaderBytes
    self.csrf = csrf
    self.sessionEnd = sessionEnd
    self.timeout = timeout
    self.headers = headers
    self.logger = logger
    self.maximumCookieCount = maximumCookieCount
    self.now = now
  }
}
