import Foundation
import HTTPMessages

/// A request as a ``LoopbackHTTPServer`` handler receives it: fully read and within limits.
public struct HTTPServerRequest: Sendable {
  /// The request method.
  public let method: HTTPMethod
  /// The request target as sent: path and optional query.
  public let target: String
  /// The header fields, in order.
  public let headers: HTTPHeaders
  /// The whole body (within the server's limit).
  public let body: Data
  /// Values of the route pattern's `{name}` segments (see ``HTTPRouter``).
  public internal(set) var pathParameters: [String: String] = [:]

  public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: Data = Data()) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
  }

  /// The target's path, without its query, still percent-encoded.
  public var path: String {
    target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
  }

  /// The target's query items, percent-decoded.
  public var queryItems: [URLQueryItem] {
    URLComponents(string: target)?.queryItems ?? []
  }

  /// The first value of the query item `name`.
  public func queryValue(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The cookies the client sent in its `Cookie` header(s), by name (the first of a name wins,
  /// which is the most specific one per RFC 6265 §5.4).
  public var cookies: [String: String] {
    var cookies: [String: String] = [:]
    for header in headers.values(for: "Cookie") {
      for pair in header.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, cookies[name] == nil else { continue }
        cookies[name] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
      }
    }
    return cookies
  }

  /// The fields of an `application/x-www-form-urlencoded` body (`+` read as a space), the
  /// first of a name winning.
  public var formFields: [String: String] {
    var fields: [String: String] = [:]
    for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
      }
      guard let name = parts.first, fields[name] == nil else { continue }
      fields[name] = parts.count > 1 ? parts[1] : ""
    }
    return fields
  }
}
