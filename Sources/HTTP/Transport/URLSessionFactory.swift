import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLSessions with everything that would keep or send state behind the session's back
/// turned off: no cookie storage or cookie handling (the session's own jar does that), no
/// cache, no credential storage, and no automatic redirects (a followed redirect would carry
/// the session's hand-set `Cookie` header to wherever it points, and its own `Set-Cookie`
/// would be lost).
enum URLSessionFactory {
  static func configuration(timeout: Duration) -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    configuration.urlCredentialStorage = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = timeout.effectiveTimeout.timeInterval
    // A stream may last for days; silence is bounded per request instead.
    configuration.timeoutIntervalForResource = 7 * 24 * 3600
    return configuration
  }

  /// A transport for ordinary requests (redirects are answered, not followed).
  static func makeTransport(timeout: Duration) -> URLTransport {
    URLTransport(configuration: configuration(timeout: timeout), delegate: RedirectRefusal())
  }
}

/// Answers every redirect with the 3xx response itself.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
