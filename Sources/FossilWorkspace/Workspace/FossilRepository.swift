import Foundation
import WorkspaceHTTP

/// The repository requests the workspace client makes, over a ``FossilSession``: check-ins,
/// branch heads, file lists and contents to read; a branch and single-file check-ins
/// (`/fileedit/commit`, Fossil's "mini check-in") to write. Writes are session calls, so a
/// login the server stopped honouring ends the session (`HTTPSessionError.signedOut`); reads
/// are too unless made with `.public` access (a host's reads, which work signed out when the
/// server lets `nobody` read).
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

  /// What one `/fileedit/commit` did.
  enum FileCommit: Equatable, Sendable {
    /// The new check-in (or, for a dry run, that it would be made).
    case committed(String)
    /// The parent already has exactly this content for the file.
    case unchanged
    /// The parent is no longer a leaf of its branch (someone checked in on it): Fossil's own
    /// refusal to fork.
    case staleParent
  }

  /// One file of a single-file check-in.
  struct FileContent: Sendable {
    var path: String
    var content: Data
    var executable: Bool
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
    let manifest = try FossilManifest.parse(try await artifact(uuid))
    guard let baseline = manifest.baseline else { return manifest.files.compactMapValues { $0 } }
    let base = try FossilManifest.parse(try await artifact(baseline))
    guard base.baseline == nil else {
      throw FossilError.unexpectedAnswer(
        request: "GET /raw", reason: "the baseline manifest of \(uuid) is itself a delta")
    }
    var files = base.files.compactMapValues { $0 }
    for (path, entry) in manifest.files { files[path] = entry }
    return files.compactMapValues { $0 }
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

  /// The newest `limit` check-ins of `branch`, newest first.
  func timeline(of branch: String, limit: Int) async throws -> [CheckIn] {
    struct Timeline: Decodable { var timeline: [CheckIn]? }
    let answer: Timeline = try await session.json(
      .get(
        "/json/timeline/checkin",
        query: [
          URLQueryItem(name: "tag", value: branch), URLQueryItem(name: "limit", value: "\(limit)"),
        ], access: access))
    return answer.timeline ?? []
  }

  // MARK: Writing

  /// Creates branch `name` from check-in `basis` (a check-in of its own, with the same
  /// files) and answers that check-in's hash.
  ///
  /// - Throws: ``FossilError/alreadyExists(request:)`` when the branch exists.
  func createBranch(_ name: String, from basis: String) async throws -> String {
    struct Created: Decodable { var uuid: String }
    struct Branch: Encodable {
      var name: String
      var basis: String
    }
    let created: Created = try await session.json(
      post: "/json/branch/create", payload: Branch(name: name, basis: basis))
    return created.uuid
  }

  /// Checks `file` in on top of `parent` (which must stay a leaf: Fossil refuses to fork),
  /// or with `dryRun` checks everything that would refuse it without writing.
  func commit(
    _ file: FileContent, onto parent: String, comment: String, dryRun: Bool = false
  ) async throws -> FileCommit {
    let request = HTTPRequest.post(
      "/fileedit/commit",
      body: .form([
        .init("filename", file.path), .init("checkin", parent), .init("content", try text(file)),
        .init("comment", comment), .init("dry_run", dryRun ? "1" : "0"), .init("allow_fork", "0"),
        .init("exec_bit", file.executable ? "1" : "0"),
      ]))
    let response = try await session.send(request)
    return try FileEditAnswer.read(response, of: request.summary)
  }

  /// The file's content as the form field carries it: `/fileedit` edits text files only, so
  /// content that is not UTF-8 text (or holds a NUL) is refused here, before it could be
  /// altered on the way.
  private func text(_ file: FileContent) throws -> String {
    guard !file.content.contains(0), let text = String(data: file.content, encoding: .utf8) else {
      throw FossilWorkspaceError.notText(path: file.path)
    }
    return text
  }

  /// Whether `text` looks like a full artifact hash (SHA1 or SHA3-256, lowercase hex).
  static func isHash(_ text: String) -> Bool {
    (text.count == 40 || text.count == 64) && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
  }
}
