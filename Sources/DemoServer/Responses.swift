import DemoHTTPProtocol
import Foundation
import HTTPMessages
import LoopbackHTTPServer

extension HTTPServerResponse {
  /// `value` as JSON with `status`.
  static func encoded(_ value: some Encodable, status: Int = 200) -> HTTPServerResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(value) else {
      return .problem(500, .other, "Internal error", "the answer could not be encoded")
    }
    return .json(data, status: status)
  }

  /// A ``DemoAPI/Problem`` document.
  static func problem(
    _ status: Int, _ code: DemoAPI.Problem.Code, _ title: String, _ detail: String
  ) -> HTTPServerResponse {
    .problem(DemoAPI.Problem(status: status, code: code, title: title, detail: detail))
  }

  static func problem(_ problem: DemoAPI.Problem) -> HTTPServerResponse {
    var response = HTTPServerResponse.encoded(problem, status: problem.status)
    response.headers["Content-Type"] = DemoAPI.Problem.contentType
    return response
  }

  /// 401: the request needs a live session.
  static let signedOut = HTTPServerResponse.problem(
    401, .signedOut, "Signed out", "there is no live session; sign in again")

  /// 404 for `what`.
  static func notFound(_ what: String) -> HTTPServerResponse {
    .problem(404, .notFound, "Not found", what)
  }
}

extension HTTPServerResponse {
  /// One of the IETF Idempotency-Key draft's problem documents.
  static func idempotency(_ problem: IdempotencyProblem) -> HTTPServerResponse {
    var response = HTTPServerResponse.json(problem.json, status: problem.status)
    response.headers["Content-Type"] = IdempotencyProblem.contentType
    return response
  }
}
