import Foundation

/// A response as the session received it. Its description names the status and size only.
public struct HTTPResponse: Sendable, Hashable, CustomStringConvertible {
  public let status: Int
  public let headers: HTTPHeaders
  public let body: Data

  public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A 2xx status.
  public var isSuccess: Bool { (200..<300).contains(status) }

  /// The body as UTF-8 text (invalid bytes replaced).
  public var text: String { String(decoding: body, as: UTF8.self) }

  /// The body decoded from JSON.
  public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws
    -> T
  {
    try decoder.decode(type, from: body)
  }

  public var description: String { "HTTPResponse(\(status), \(body.count) bytes)" }
}

/// A typed endpoint: a request and how to read its answer. The shape a typed client over
/// ``HTTPSession`` is built from.
///
/// ```swift
/// struct Me: Decodable, Sendable { let name: String }
/// let me = try await session.send(.json(.get("/v1/me"), as: Me.self))
/// ```
public struct HTTPEndpoint<Value: Sendable>: Sendable {
  /// The request to send.
  public var request: HTTPRequest
  /// Reads the answer (throws for an answer it cannot use).
  public var read: @Sendable (HTTPResponse) throws -> Value

  public init(request: HTTPRequest, read: @escaping @Sendable (HTTPResponse) throws -> Value) {
    self.request = request
    self.read = read
  }

  /// Decodes a 2xx answer's JSON body as `Value`; any other status throws
  /// ``HTTPStatusError``.
  public static func json(_ request: HTTPRequest, as _: Value.Type = Value.self) -> Self
  where Value: Decodable {
    HTTPEndpoint(request: request) { response in
      guard response.isSuccess else {
        throw HTTPStatusError(request: request.summary, response: response)
      }
      return try response.decode(Value.self)
    }
  }
}

/// A response whose status the caller did not expect. Its description names the request and
/// status, never the body (which stays available in ``response``).
public struct HTTPStatusError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The method and path, e.g. `POST /v1/proposals`.
  public let request: String
  /// The whole answer, body included, for the caller to inspect.
  public let response: HTTPResponse

  public init(request: String, response: HTTPResponse) {
    self.request = request
    self.response = response
  }

  public var status: Int { response.status }

  public var description: String { "\(request) answered \(response.status)." }
}
