import Foundation
import WorkspaceHTTP

/// Fossil's JSON envelope: `resultCode`/`resultText` only on errors, `payload` only on success,
/// `warnings` sometimes (the SQLite authorizer's CSRF refusal says so there).
struct FossilEnvelope<Payload: Decodable>: Decodable {
  var resultCode: String?
  var resultText: String?
  var payload: Payload?
  var warnings: [FossilWarning]?
}

/// One of an envelope's `warnings`.
struct FossilWarning: Decodable {
  var text: String?
}

/// Reads Fossil's answers into payloads or ``FossilError``s.
enum FossilAnswer {
  /// The payload of a JSON API answer to `request`, or the error it stands for.
  static func payload<Payload: Decodable>(
    _ response: HTTPResponse, of request: String, as _: Payload.Type = Payload.self
  ) throws -> Payload {
    guard response.status == 200 else { throw unexpectedStatus(response, of: request) }
    let envelope: FossilEnvelope<Payload>
    do {
      envelope = try JSONDecoder().decode(FossilEnvelope<Payload>.self, from: response.body)
    } catch is DecodingError {
      throw FossilError.unexpectedAnswer(
        request: request, reason: "its body is not Fossil's JSON (\(response.body.count) bytes)")
    }
    if let code = envelope.resultCode {
      throw refusal(code: code, text: envelope.resultText, warnings: envelope.warnings, request)
    }
    guard let payload = envelope.payload else {
      throw FossilError.unexpectedAnswer(request: request, reason: "it has no payload")
    }
    return payload
  }

  /// A status other than 200 on the JSON API (which always answers 200): a busy or broken
  /// server (5xx, 408, 429) may answer better later; anything else is not Fossil's answer.
  static func unexpectedStatus(_ response: HTTPResponse, of request: String) -> any Error {
    switch response.status {
    case 408, 429, 500..<600:
      FossilUnavailable("\(request) answered \(response.status); the server may be busy")
    default:
      FossilError.unexpectedAnswer(request: request, reason: "HTTP status \(response.status)")
    }
  }

  /// Whether `response` is Fossil's refusal because another writer held the repository's
  /// SQLite lock ("database is locked", `SQLITE_BUSY`). Fossil meets it at once, without
  /// waiting, when a request that has read inside its transaction must start writing while
  /// another connection writes — for one, the `PRAGMA optimize` (an `ANALYZE`) that the
  /// handler of every write runs after its answer was sent. Fossil then rolls the request's
  /// transaction back: nothing it wrote stays, and it may be sent again. The JSON API (`/json…`)
  /// answers it as an error envelope; other pages as Fossil's "Database error" page, with 400;
  /// the sync protocol (after the server's own busy wait) as an `error` card.
  static func isRepositoryLocked(_ response: HTTPResponse, of request: HTTPRequest) -> Bool {
    struct Refusal: Decodable {
      var resultCode: String?
      var resultText: String?
    }
    let sqliteBusy = "database is locked"
    // Status and path first: only these two answers are read, never a file's contents.
    func mentionsBusy() -> Bool { response.body.range(of: Data(sqliteBusy.utf8)) != nil }
    var isSync = false
    if case .bytes(_, let type) = request.body { isSync = type == FossilSession.syncContentType }
    switch response.status {
    case 200 where isSync:
      // A sync reply: Fossil's `error` card (spaces written `\s`), after its busy wait.
      return String(decoding: response.body.prefix(4096), as: UTF8.self)
        .split(whereSeparator: \.isNewline)
        .contains { $0.hasPrefix("error ") && $0.contains(#"database\sis\slocked"#) }
    case 200 where request.path.hasPrefix("/json"):
      guard mentionsBusy(),
        let refusal = try? JSONDecoder().decode(Refusal.self, from: response.body)
      else { return false }
      return refusal.resultCode != nil && refusal.resultText?.contains(sqliteBusy) == true
    case 400:
      return mentionsBusy() && response.text.contains("Database error: ")
    default:
      return false
    }
  }

  /// The error a `resultCode` stands for.
  static func refusal(
    code: String, text: String?, warnings: [FossilWarning]?,
    _ request: String
  ) -> FossilError {
    let number = Int(code.dropFirst("FOSSIL-".count)) ?? 0
    let authorizerRefused = (warnings ?? []).contains { $0.text?.contains("SQLITE_AUTH") == true }
    switch number {
    case 1103 where authorizerRefused:
      // Fossil's SQLite authorizer refuses every write of a request without a same-origin
      // Referer: its CSRF defence for the JSON API.
      return .csrfRefused(request: request)
    case 2100...2199:
      return .signInRefused(reason: reasonText(text, fallback: "login failed"))
    case 2000...2099:
      return .notAuthorized(request: request, code: code)
    case 3005:
      return .alreadyExists(request: request)
    case 3006:
      return .notFound(request: request)
    default:
      return .refused(request: request, code: code, reason: reasonText(text, fallback: "no reason"))
    }
  }

  /// Fossil's own text, on one line and without what follows a `:` detail (SQL statements,
  /// names) — bounded, so a hostile server cannot fill a message.
  static func reasonText(_ text: String?, fallback: String) -> String {
    guard let text, !text.isEmpty else { return fallback }
    let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
    let head = firstLine.split(separator: "{", maxSplits: 1).first.map(String.init) ?? firstLine
    let trimmed = head.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: ":")))
    return trimmed.isEmpty ? fallback : String(trimmed.prefix(200))
  }
}
