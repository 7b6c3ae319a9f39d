import ComposableWorkspace
import Foundation
import ProcessSupport
import WorkspaceHTTP

/// The workspace client's local clone of the server's repository: where proposals are checked
/// in and merged with `fossil` itself, and what previews, listings and merges read. Fossil's
/// sync moves artifacts between it and the server through a ``FossilSyncRelay`` on the
/// client's session, so the login stays in this process.
///
/// It lives at `<root>/.fossil/<server digest>.fossil` (one per server; `FOSSIL_HOME` is that
/// folder too, so the user's own fossil settings are never read or written). Every use is
/// serialized by the client (one gate per clone), so fossil never meets its own lock.
struct FossilClone: Sendable {
  /// The repository file.
  let file: URL
  /// How fossil runs (its home is the clone's folder).
  let fossil: FossilCommand
  /// The server's session (its cookie jar carries the login).
  let session: FossilSession

  init(root: URL, session: FossilSession, executable: URL?) {
    let folder = root.appendingPathComponent(".fossil", isDirectory: true)
    let digest = SHA256.hash(Array(session.baseURL.absoluteString.utf8)).hexString.prefix(16)
    file = folder.appendingPathComponent("\(digest).fossil")
    fossil = FossilCommand(executable: executable, home: folder)
    self.session = session
  }

  var folder: URL { file.deletingLastPathComponent() }

  // MARK: Sync

  /// Brings every artifact of the server into the clone: `fossil clone` the first time (then
  /// the clone exists only once it is whole), `fossil pull` afterwards. Reads are public: they
  /// work signed out when the server lets `nobody` read, and carry the login when there is one.
  func pull() async throws {
    if FileManager.default.fileExists(atPath: file.path) {
      try await sync("pull", access: .public)
      return
    }
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let partial = folder.appendingPathComponent(".clone-\(UUID().uuidString).fossil")
    do {
      try await sync(
        "clone", options: ["--no-open", "--admin-user", fossil.user], into: partial,
        access: .public)
      try FileManager.default.moveItem(at: partial, to: file)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw error
    }
  }

  /// Sends the clone's new artifacts to the server (a session call: it needs the login and the
  /// check-in capability).
  func push() async throws {
    try await sync("push", access: .session)
  }

  /// Runs `fossil <command> <options> --once --transport-command <relay> <server>`, then
  /// either `<target>` (a clone) or `-R <clone>`, carrying its round trips with `access`.
  private func sync(
    _ command: String, options: [String] = [], into target: URL? = nil,
    access: HTTPRequest.Access
  ) async throws {
    let session = self.session
    let relay = try FossilSyncRelay(in: folder) { message in
      try await session.syncExchange(message, access: access)
    }
    let result: ProcessResult
    do {
      let arguments =
        [command] + options
        + ["--once", "--transport-command", relay.command, session.baseURL.absoluteString]
        + (target.map { [$0.path] } ?? ["-R", file.path])
      result = try await fossil.run(arguments, allowingFailure: true)
    } catch {
      await relay.stop()
      throw error
    }
    await relay.stop()
    try relay.check()
    // A round trip whose command failed ends the sync with a warning and status 0 (and the
    // clone forgets what it had queued to send, so only a new sync sends it).
    if Self.transportFailed(result) {
      throw FossilUnavailable(
        "fossil \(command): a round trip's transport command failed; nothing is lost, try again")
    }
    // Fossil exits 0 on a refusal the server sent ("not authorized to write"): its words are
    // the answer.
    if let refusal = Self.refusal(in: result) {
      if command == "push", refusal.contains("not authorized") {
        throw FossilError.notAuthorized(request: "fossil push", code: refusal)
      }
      throw FossilSyncError.refused(command: command, reason: refusal)
    }
    guard result.status == 0, result.signal == nil else {
      throw FossilSyncError.refused(
        command: command, reason: Self.firstLine(result.errorText + result.outputText))
    }
  }

  private static func transportFailed(_ result: ProcessResult) -> Bool {
    (result.errorText + "\n" + result.outputText).contains("Transport command failed")
  }

  private static func refusal(in result: ProcessResult) -> String? {
    for line in (result.errorText + "\n" + result.outputText).split(whereSeparator: \.isNewline)
    where line.hasPrefix("Error: ") || line.hasPrefix("server says: ") {
      return String(line.drop { $0 != " " }.dropFirst())
    }
    return nil
  }

  private static func firstLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "no message"
  }

  // MARK: Reading

  /// A check-in of the clone, as listings need it.
  struct CheckIn: Decodable, Hashable, Sendable {
    var uuid: String
    var user: String?
    var comment: String?
    /// Its primary parent.
    var parent: String?
    /// The check-in of another branch that merged it, if any (the oldest).
    var mergedInto: String?
    /// The branch it is on.
    var branch: String?
  }

  /// The newest check-in of `branch` (what `tag:<branch>` names), or `nil`.
  func head(of branch: String) async throws -> CheckIn? {
    try await heads(of: [branch])[branch]
  }

  /// The newest check-in of each of `branches` that exists, by branch name: one query.
  func heads(of branches: [String]) async throws -> [String: CheckIn] {
    let tags = branches.map { FossilCommand.sqlLiteral("sym-" + $0) }.joined(separator: ", ")
    return try await newestByTag(where: "t.tagname IN (\(tags))")
  }

  /// The newest check-in of every branch whose name starts with `prefix`, by branch name.
  func branchHeads(prefix: String) async throws -> [String: CheckIn] {
    try await newestByTag(
      where: "substr(t.tagname, 1, \(4 + prefix.utf8.count)) = "
        + FossilCommand.sqlLiteral("sym-" + prefix))
  }

  /// The newest check-in carrying each branch tag `condition` selects (on `t.tagname`).
  private func newestByTag(where condition: String) async throws -> [String: CheckIn] {
    /// A row: the tag's branch name beside the check-in's columns.
    struct Tagged: Decodable {
      var tag: String
      var checkIn: CheckIn

      private enum Key: CodingKey { case tag }

      init(from decoder: any Decoder) throws {
        tag = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .tag)
        checkIn = try CheckIn(from: decoder)
      }
    }
    // The newest check-in per tag is ranked in SQL: a branch's every check-in carries its tag.
    let rows: [Tagged] = try await query(
      """
      WITH ranked AS (
        SELECT x.rid AS rid, substr(t.tagname, 5) AS tag,
          row_number() OVER (PARTITION BY t.tagid ORDER BY e.mtime DESC) AS rank
        FROM tagxref x JOIN tag t ON t.tagid = x.tagid JOIN event e ON e.objid = x.rid
        WHERE e.type = 'ci' AND x.tagtype > 0 AND \(condition))
      SELECT r.tag AS tag, b.uuid AS uuid, e.user AS user,
        coalesce(e.ecomment, e.comment) AS comment,
        (SELECT pb.uuid FROM plink p JOIN blob pb ON pb.rid = p.pid
          WHERE p.cid = e.objid AND p.isprim) AS parent,
        (SELECT cb.uuid FROM plink m JOIN blob cb ON cb.rid = m.cid
          WHERE m.pid = e.objid AND NOT m.isprim ORDER BY m.mtime LIMIT 1) AS mergedInto,
        (SELECT substr(bt.tagname, 5) FROM tagxref bx JOIN tag bt ON bt.tagid = bx.tagid
          WHERE bx.rid = e.objid AND bx.tagtype > 0 AND bt.tagname LIKE 'sym-%'
          ORDER BY bx.mtime DESC LIMIT 1) AS branch
      FROM ranked r JOIN event e ON e.objid = r.rid JOIN blob b ON b.rid = e.objid
      WHERE r.rank = 1
      """)
    var heads: [String: CheckIn] = [:]
    for row in rows where heads[row.tag] == nil { heads[row.tag] = row.checkIn }
    return heads
  }

  /// Every file of check-in `uuid` (its manifest, and its baseline's for a delta manifest).
  func files(of uuid: String) async throws -> [String: FossilManifest.Entry] {
    try await FossilManifest.files(of: uuid, source: "fossil artifact") { try await artifact($0) }
  }

  /// The content of artifact `hash` (a manifest or a file), as the clone holds it: fossil
  /// checked it against its hash when it arrived.
  func artifact(_ hash: String) async throws -> Data {
    guard FossilRepository.isHash(hash) else {
      throw FossilError.unexpectedAnswer(
        request: "fossil artifact", reason: "\(hash) is not a hash")
    }
    return try await fossil.run(["artifact", hash, "-R", file.path]).standardOutput
  }

  /// Rows of `select` (SQL on the clone, read by `fossil sql` from standard input).
  func query<Row: Decodable>(_ select: String) async throws -> [Row] {
    let output = try await fossil.run(
      ["sql", "-R", file.path, "--readonly"], input: Data(".mode json\n\(select);\n".utf8)
    ).standardOutput
    guard output.contains(where: { !Character(UnicodeScalar($0)).isWhitespace }) else { return [] }
    do {
      return try JSONDecoder().decode([Row].self, from: output)
    } catch {
      throw FossilError.unexpectedAnswer(
        request: "fossil sql", reason: "its rows cannot be read: \(error)")
    }
  }

  // MARK: Writing

  /// Opens a check-out of `revision` in a new scratch folder beside the clone, runs `body` in
  /// it, and closes and removes it however `body` ends.
  func withCheckout<T: Sendable>(
    of revision: String, _ body: (URL) async throws -> T
  ) async throws -> T {
    try await fossil.withCheckout(of: file, at: revision, in: folder, body)
  }

  /// `fossil commit` in `checkout` (never syncing: the caller pushes), as `user`; answers the
  /// new check-in (``FossilWorkspaceError/nothingToPropose`` when nothing changed). Line ends, binary content and empty files are committed as they are; files
  /// are compared by hash (`--hash`), never by size and time alone (a file rewritten within
  /// the same second at the same size would pass for unchanged).
  func commit(
    in checkout: URL, comment: String, user: String, branch: String? = nil
  ) async throws -> String {
    var arguments = [
      "commit", "--hash", "--nosync", "--no-warnings", "--no-prompt", "--user-override", user,
      "-m", comment,
    ]
    if let branch { arguments += ["--branch", branch] }
    let result = try await fossil.run(arguments, in: checkout, allowingFailure: true)
    guard result.status == 0, result.signal == nil else {
      let message = result.errorText + result.outputText
      if message.contains("nothing has changed") { throw FossilWorkspaceError.nothingToPropose }
      throw FossilCommandError(
        arguments: ["commit"], status: result.signal ?? result.status,
        message: message.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard let made = FossilCommand.newVersion(in: result.outputText) else {
      throw FossilError.unexpectedAnswer(request: "fossil commit", reason: "no New_Version line")
    }
    return made
  }
}
