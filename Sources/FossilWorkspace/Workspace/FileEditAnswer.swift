import Foundation
import WorkspaceHTTP

/// Reads the answers of `/fileedit/commit`, which are not the JSON API's: `{"checkin": …}` on
/// success, `{"error": "…"}` with an HTTP error status otherwise.
enum FileEditAnswer {
  static func read(_ response: HTTPResponse, of request: String) throws
    -> FossilRepository.FileCommit
  {
    struct Success: Decodable { var checkin: String }
    struct Failure: Decodable { var error: String }
    if response.status == 200 {
      guard let success = try? JSONDecoder().decode(Success.self, from: response.body),
        FossilRepository.isHash(success.checkin)
      else {
        throw FossilError.unexpectedAnswer(request: request, reason: "no new check-in in it")
      }
      return .committed(success.checkin)
    }
    guard let failure = try? JSONDecoder().decode(Failure.self, from: response.body) else {
      throw FossilAnswer.unexpectedStatus(response, of: request)
    }
    let message = failure.error
    switch response.status {
    case 500 where message.contains("is not a leaf"):
      return .staleParent
    case 500 where message.hasPrefix("File is unchanged"):
      return .unchanged
    case 403 where message.hasPrefix("CSRF violation"):
      throw FossilError.csrfRefused(request: request)
    case 403 where message.hasPrefix("Write permissions required"):
      throw FossilError.notAuthorized(request: request, code: "HTTP 403")
    default:
      throw FossilError.refused(
        request: request, code: "HTTP \(response.status)",
        reason: FossilAnswer.reasonText(message, fallback: "no reason"))
    }
  }
}
