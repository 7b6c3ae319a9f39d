import Foundation
import HTTPMessages

/// Answers one request. Handlers run on the Swift concurrency pool and should honour
/// cancellation: the server cancels a handler whose client went away or when it stops.
public typealias HTTPHandler = @Sendable (HTTPServerRequest) async -> HTTPServerResponse

/// Routes requests by method and path to handlers.
///
/// A pattern is a path whose `{name}` segments match any one segment, handed to the handler
/// percent-decoded in ``HTTPServerRequest/pathParameters``:
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/me") { _ in .json(#"{"name":"ada"}"#) }
/// router.add(.post, "/proposals/{id}/merge") { request in
///   .text("merged \(request.pathParameters["id"] ?? "")")
/// }
/// let server = try LoopbackHTTPServer(router: router)
/// ```
///
/// A path no route matches answers 404; a path matched only for other methods answers 405
/// with an `Allow` header. A `GET` route also answers `HEAD` (the server sends no body).
public struct HTTPRouter: Sendable {
  private struct Route: Sendable {
    let method: HTTPMethod
    let segments: [Substring]
    let handler: HTTPHandler
  }

  private var routes: [Route] = []

  public init() {}

  /// Adds a route; earlier routes win over later ones that match the same request.
  public mutating func add(
    _ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler
  ) {
    routes.append(Route(method: method, segments: Self.segments(of: pattern), handler: handler))
  }

  /// Adds a `GET` route.
  public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) {
    add(.get, pattern, handler)
  }

  /// Adds a `POST` route.
  public mutating func post(_ pattern: String, _ handler: @escaping HTTPHandler) {
    add(.post, pattern, handler)
  }

  /// Answers `request` with the first matching route's handler, or 404/405.
  public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    let segments = Self.segments(of: request.path)
    var allowed: [String] = []
    for route in routes {
      guard let parameters = Self.match(route.segments, segments) else { continue }
      let answersHead = request.method == .head && route.method == .get
      guard route.method == request.method || answersHead else {
        allowed.append(route.method.rawValue)
        continue
      }
      var routed = request
      routed.pathParameters = parameters
      return await route.handler(routed)
    }
    guard allowed.isEmpty else {
      var response = HTTPServerResponse.text("Method not allowed", status: 405)
      response.headers["Allow"] = allowed.joined(separator: ", ")
      return response
    }
    return .text("Not found", status: 404)
  }

  private static func segments(of path: String) -> [Substring] {
    path.split(separator: "/")
  }

  private static func match(_ pattern: [Substring], _ path: [Substring]) -> [String: String]? {
    guard pattern.count == path.count else { return nil }
    var parameters: [String: String] = [:]
    for (expected, actual) in zip(pattern, path) {
      if expected.hasPrefix("{") && expected.hasSuffix("}") {
        parameters[String(expected.dropFirst().dropLast())] =
          actual.removingPercentEncoding ?? String(actual)
      } else if expected != actual {
        return nil
      }
    }
    return parameters
  }
}
