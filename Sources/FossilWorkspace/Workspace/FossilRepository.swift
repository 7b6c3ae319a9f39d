import Foundation
import WorkspaceHTTP

/// The JSON and raw reads the workspace client makes of the server itself, over a
/// ``FossilSession``: check-ins, branch heads, file lists and contents — what is asked of the
/// server as it is now (a head after a push) rather than of the local clone. Reads are session
/// calls, so a login the server stopped honouring ends the session
/// (`HTTPSessionError.signedOut`), unless made with `.public` access (a host's reads, which
/// work signed out when the server lets `nobody` read).
struct FossilRepository: Sendable {
  let session: FossilSession
  var access: HTTPRequest.Access = .session

  /// A check-in as `/json/artifact` describes it.
  struct CheckIn: Decodable, Hashable, Sendable {
    var uuid: String
    var user: String?
    var comment: String?
    var parents: [String]?
    var tags: [String]?
    var type: String?

    var firstParent: String? { parents?.first }
  }

  // MARK: Reading

  /// The check-in `name` names (a hash, a prefix, `tag:<branch>` for a branch's newest).
  func checkIn(_ name: String) async throws -> CheckIn {
    let checkIn: CheckIn = try await session.json(
      .get("/json/artifact", query: [URLQueryItem(name: "name", value: name)], access: access))
    guard checkIn.type == nil || checkIn.type == "checkin", Self.isHash(checkIn.uuid) else {
      throw FossilError.unexpectedAnswer(
        request: "GET /json/artifact", reason: "\(name) is not a check-in")
    }
    return checkIn
  }

  /// The check-in `name` names, or `nil` when there is none.
  func checkInIfAny(_ name: String) async throws -> CheckIn? {
    do {
      return try await checkIn(name)
    } catch FossilError.notFound {
      return nil
    }
  }

  /// The newest check-in of `branch`, or `nil` when there is no such branch.
  func head(of branch: String) async throws -> CheckIn? {
    try await checkInIfAny("tag:\(branch)")
  }

  /// Every file of check-in `uuid` (its manifest, and its baseline's for a delta manifest).
  func files(of uuid: String) async throws -> [String: FossilManifest.Entry] {
    try await FossilManifest.files(of: uuid, source: "GET /raw") { try await artifact($0) }
  }

  /// The raw bytes of artifact `hash` (a manifest, or a file's content).
  func artifact(_ hash: String) async throws -> Data {
    let request = HTTPRequest.get(
      "/raw", query: [URLQueryItem(name: "name", value: hash)], access: access)
    let response = try await session.send(request)
    switch response.status {
    case 200: return response.body
    case 302, 404: throw FossilError.notFound(request: request.summary)
    default: throw FossilAnswer.unexpectedStatus(response, of: request.summary)
    }
  }

  /// Every branch name, closed ones included.
  func branches() async throws -> [String] {
    struct Listing: Decodable { var branches: [String] }
    let listing: Listing = try await session.json(
      .get("/json/branch/list", query: [URLQueryItem(name: "range", value: "all")], access: access))
    return listing.branches
  }

  /// Whether `text` looks like a full artifact hash (SHA1 or SHA3-256, lowercase hex).
  static func isHash(_ text: String) -> Bool {
    (text.count == 40 || text.count == 64) && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
  }
}
