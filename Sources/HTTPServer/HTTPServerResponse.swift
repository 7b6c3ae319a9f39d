import Foundation
import HTTPMessages

/// What a ``LoopbackHTTPServer`` handler answers.
///
/// ```swift
/// var response = HTTPServerResponse.json(#"{"name":"ada"}"#)
/// response.setCookie(SetCookie(name: "session", value: next, httpOnly: true))
/// ```
public struct HTTPServerResponse: Sendable {
  /// The response body, or a fault to inject.
  public enum Body: Sendable {
    /// An ordinary body, sent with `Content-Length`.
    case bytes(Data)
    /// A `text/event-stream` body written by `produce` until it returns or the client leaves
    /// (then its task is cancelled). The connection closes afterwards.
    case eventStream(@Sendable (EventStreamWriter) async -> Void)
    /// Close the connection without a byte of answer (an answer lost in transit).
    case closeWithoutAnswer
    /// Abort the connection with a TCP reset, without an answer.
    case resetConnection
  }

  /// The status code.
  public var status: Int
  /// Headers; the server sets `Content-Length` and `Connection` itself.
  public var headers: HTTPHeaders
  /// The body, or a fault to inject.
  public var body: Body

  public init(status: Int = 200, headers: HTTPHeaders = [:], body: Body = .bytes(Data())) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A `text/plain; charset=utf-8` answer.
  public static func text(_ text: String, status: Int = 200) -> HTTPServerResponse {
    HTTPServerResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: .bytes(Data(text.utf8)))
  }

  /// An `application/json` answer with `json` as its body.
  public static func json(_ json: String, status: Int = 200) -> HTTPServerResponse {
    HTTPServerResponse.json(Data(json.utf8), status: status)
  }

  /// An `application/json` answer with `data` as its body.
  public static func json(_ data: Data, status: Int = 200) -> HTTPServerResponse {
    HTTPServerResponse(
      status: status, headers: ["Content-Type": "application/json"], body: .bytes(data))
  }

  /// An empty answer with `status`.
  public static func status(_ status: Int) -> HTTPServerResponse {
    HTTPServerResponse(status: status)
  }

  /// A server-sent event stream (see ``EventStreamWriter``).
  public static func eventStream(
    _ produce: @escaping @Sendable (EventStreamWriter) async -> Void
  ) -> HTTPServerResponse {
    HTTPServerResponse(
      status: 200,
      headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
      body: .eventStream(produce))
  }

  /// Close the connection without answering (see ``Body/closeWithoutAnswer``).
  public static let closeWithoutAnswer = HTTPServerResponse(body: .closeWithoutAnswer)

  /// Reset the connection without answering (see ``Body/resetConnection``).
  public static let resetConnection = HTTPServerResponse(body: .resetConnection)

  /// Adds a `Set-Cookie` header.
  public mutating func setCookie(_ cookie: SetCookie) {
    headers.add("Set-Cookie", cookie.headerValue)
  }
}
