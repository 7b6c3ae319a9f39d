/// A request, or a connection, the server refused before any handler saw it: what a log line
/// says about it (``LoopbackHTTPServer``'s `onRefusal`).
///
/// Its ``description`` reads like a log line of an answered request, with the reason:
/// `GET /v1/me → 408 (The request did not arrive in time.)`, or `- - → 503 (…)` when no request
/// line had arrived. It never holds a query, a header value or a body.
public struct HTTPRefusal: Sendable, Equatable, CustomStringConvertible {
  /// The status the client was answered with (400, 408, 413, 431, 501, 503 or 505).
  public var status: Int
  /// Why, in a sentence (the answer's body).
  public var reason: String
  /// The request's method, when its request line had arrived.
  public var method: String?
  /// The request's path (never its query), when its request line had arrived.
  public var path: String?

  public init(status: Int, reason: String, method: String? = nil, path: String? = nil) {
    self.status = status
    self.reason = reason
    self.method = method
    self.path = path
  }

  public var description: String {
    "\(method ?? "-") \(path ?? "-") → \(status) (\(reason))"
  }
}
