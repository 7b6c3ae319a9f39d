import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a request through an ``HTTPSession`` has no answer. Messages name the method and path,
/// never a query, header, cookie or body.
public enum HTTPSessionError: Error, Hashable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The session is signed out (or ended while this request was in flight; its answer was
  /// dropped). Sign in again; retrying will not help.
  case signedOut
  /// The server stayed silent longer than the request's timeout.
  case timedOut(request: String, after: Duration)
  /// The connection could not be made or broke before a complete answer.
  case connectionFailed(request: String, reason: String)
  /// A mutation needs a CSRF proof made from this cookie, and the jar has none.
  case csrfTokenUnavailable(cookie: String)
  /// The path does not make a URL below the session's base URL.
  case invalidPath(String)
  /// The jar's cookies for this request would make a `Cookie` header longer than the
  /// configuration allows (`maximumCookieHeaderBytes`); the request was not sent.
  case cookieHeaderTooLarge(request: String, bytes: Int, limit: Int)

  /// Whether sending the same request again may succeed (the server may or may not have acted
  /// on it: only retry what is idempotent).
  public var isTransient: Bool {
    switch self {
    case .timedOut, .connectionFailed: true
    case .signedOut, .csrfTokenUnavailable, .invalidPath, .cookieHeaderTooLarge: false
    }
  }

  public var description: String {
    switch self {
    case .signedOut:
      "The session is signed out; sign in again."
    case .timedOut(let request, let after):
      "\(request) got no answer within \(after.formattedSeconds)."
    case .connectionFailed(let request, let reason):
      "\(request) failed: \(reason)."
    case .csrfTokenUnavailable(let cookie):
      "No \(cookie) cookie to prove this mutation with (CSRF); the request was not sent."
    case .invalidPath(let path):
      "\"\(path)\" is not a path below the session's server."
    case .cookieHeaderTooLarge(let request, let bytes, let limit):
      "\(request) was not sent: the server's cookies would make a Cookie header of \(bytes) "
        + "bytes, over the limit of \(limit)."
    }
  }

  public var errorDescription: String? { description }

  /// Maps a URLSession failure to a fixed phrase per error code: the system's own text may
  /// quote the URL, and with it a query's token.
  static func from(urlErrorCode code: Int, request: String, timeout: Duration)
    -> HTTPSessionError
  {
    func failed(_ reason: String) -> HTTPSessionError {
      .connectionFailed(request: request, reason: reason)
    }
    switch URLError.Code(rawValue: code) {
    case .timedOut: return .timedOut(request: request, after: timeout)
    case .networkConnectionLost: return failed("the connection was lost")
    case .cannotConnectToHost: return failed("could not connect to the server")
    case .badServerResponse, .zeroByteResource: return failed("the server closed without an answer")
    case .cannotFindHost, .dnsLookupFailed: return failed("the server's name did not resolve")
    case .notConnectedToInternet: return failed("there is no network connection")
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
      return failed("the TLS connection failed")
    default: return failed("URL error \(code)")
    }
  }
}

extension Duration {
  /// `0.3 s`, `30 s`.
  var formattedSeconds: String {
    let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
    let rounded = (seconds * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
  }

  var timeInterval: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The timeout URLSession really applies. FoundationNetworking truncates a timeout to whole
  /// seconds (`Int(timeoutInterval) * 1000` ms), so 0.3 s would fire at once and 1.5 s after
  /// 1 s: there, timeouts are rounded up to whole seconds, at least one.
  var effectiveTimeout: Duration {
    #if canImport(FoundationNetworking)
      let seconds = max(1, Int64(timeInterval.rounded(.up)))
      return .seconds(seconds)
    #else
      return self
    #endif
  }
}
