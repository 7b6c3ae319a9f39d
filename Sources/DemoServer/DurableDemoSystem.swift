import ComposableWorkspace
import DemoSQLiteCatalogue
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

/// The demo system kept in one SQLite file (`demo-cli serve --database FILE`): the catalogue is
/// a ``/SQLiteWorkspace/SQLiteRemoteStore`` — branches, revisions (each a whole database with
/// an `events` table), proposals (each a changeset on the revision it was made against) and
/// their idempotency keys — and the same file holds the sessions, the accounts' grants and the
/// counters that number them.
///
/// The file is in WAL mode with `synchronous = FULL`, and every request is at most one write
/// transaction, committed before the answer is sent: a server killed at any moment and
/// restarted on the same file has every answer it gave, and never a proposal twice. A merge
/// applies the proposal's changeset in one transaction, or reports the events both sides
/// changed (``/WorkspaceDemoFeature/DemoError/mergeConflict(proposal:events:)``) and lands
/// nothing.
///
/// Accounts and passwords are the demo's own (`DemoAccount.all`), never written. Proposals are
/// listed at once (no projection lag).
///
/// ```swift
/// let system = try await DurableDemoSystem(path: "demo.sqlite")
/// let server = try DemoServer(port: 8080, service: DemoService(system: system))
/// ```
public actor DurableDemoSystem: ServedSystem {
  /// The file.
  public nonisolated let path: String
  /// The catalogue: what `/v1/sqlite/…` serves to SQLite workspace clients.
  public nonisolated let store: SQLiteRemoteStore
  private let accounts: [String: DemoAccount]

  /// Opens the system kept at `path`, creating and seeding it (the demo's catalogue, no
  /// sessions) when there is no file. A file that is not one (another application's database,
  /// a damaged file) is refused with ``/WorkspaceDemoFeature/DemoError/unavailable(_:)`` and
  /// left as it is.
  public init(path: String) async throws(DemoError) {
    self.path = path
    self.accounts = Dictionary(uniqueKeysWithValues: DemoAccount.all.map { ($0.username, $0) })
    do {
      store = try SQLiteRemoteStore(path: path)
      try await store.transaction { db in try db.execute(Self.schema) }
      try await CatalogueSeed.completeSeed(of: store)
    } catch {
      throw .unavailable("\(path): \(error)")
    }
  }

  static let schema = """
    CREATE TABLE IF NOT EXISTS demo_sessions (
      token TEXT PRIMARY KEY,
      username TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS demo_grants (
      id TEXT PRIMARY KEY,
      username TEXT NOT NULL,
      session_token TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS demo_counters (
      name TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    );
    """

  // MARK: Sessions and grants

  public func signIn(username: String, password: String) async throws(DemoError) -> DemoSession {
    guard let account = accounts[username] else { throw .unknownAccount(username) }
    guard account.password == password else { throw .wrongPassword(username) }
    return try await write { db in
      let number = try Self.next("session", on: db)
      let session = DemoSession(token: "session-\(number)", username: username)
      try db.run(
        "INSERT INTO demo_sessions (token, username) VALUES (?, ?)",
        [.text(session.token), .text(username)])
      return session
    }
  }

  public func signOut(token: String) async throws(DemoError) {
    try await write { db in
      try db.run("DELETE FROM demo_grants WHERE session_token = ?", [.text(token)])
      try db.run("DELETE FROM demo_sessions WHERE token = ?", [.text(token)])
    }
  }

  public func account(token: String) async throws(DemoError) -> DemoAccount {
    let username = try await write { db in
      try db.value("SELECT username FROM demo_sessions WHERE token = ?", [.text(token)])
    }
    guard case .text(let name)? = username, let account = accounts[name] else {
      throw .sessionExpired
    }
    return account
  }

  public func admit(token: String) async throws(DemoError) -> DemoGrant {
    let accounts = self.accounts
    // The session is checked in the transaction that issues the grant: no grant for a
    // session that ended meanwhile.
    return try await write { db in
      guard
        case .text(let name)? = try db.value(
          "SELECT username FROM demo_sessions WHERE token = ?", [.text(token)]),
        let account = accounts[name]
      else { throw DemoError.sessionExpired }
      guard account.mayAuthor else {
        throw DemoError.admissionDenied("\(account.displayName) may read but not author")
      }
      let grant = DemoGrant(
        id: "grant-\(try Self.next("grant", on: db))", username: account.username,
        sessionToken: token)
      try db.run(
        "INSERT INTO demo_grants (id, username, session_token) VALUES (?, ?, ?)",
        [.text(grant.id), .text(grant.username), .text(token)])
      return grant
    }
  }

  public func validate(grantID: String, token: String) async throws(DemoError) -> DemoGrant {
    let row = try await write { db in
      try db.rows(
        """
        SELECT demo_grants.username FROM demo_grants
        JOIN demo_sessions ON demo_sessions.token = demo_grants.session_token
          AND demo_sessions.username = demo_grants.username
        WHERE demo_grants.id = ? AND demo_grants.session_token = ?
        """, [.text(grantID), .text(token)]
      ).first
    }
    guard case .text(let username)? = row?.first, let account = accounts[username] else {
      throw .grantInvalid
    }
    guard account.mayAuthor else {
      throw .admissionDenied("\(account.displayName) may read but not author")
    }
    return DemoGrant(id: grantID, username: username, sessionToken: token)
  }

  public func revoke(grantID: String) async throws(DemoError) {
    try await write { db in try db.run("DELETE FROM demo_grants WHERE id = ?", [.text(grantID)]) }
  }

  public func revokeAllGrants() async throws(DemoError) {
    try await write { db in try db.run("DELETE FROM demo_grants") }
  }

  // MARK: Catalogue

  public func branches() async throws(DemoError) -> [String] {
    try await catalogue { try await self.store.branches().map(\.branch.rawValue).sorted() }
  }

  public func head(of branch: String) async throws(DemoError) -> DemoRevision {
    try await catalogue(branch: branch) {
      let head = try await self.store.head(of: BranchName(branch))
      return DemoRevision(id: head.revision, events: try await self.store.events(at: head.revision))
    }
  }

  public func revision(_ id: String, of branch: String) async throws(DemoError) -> DemoRevision {
    let history = try await catalogue(branch: branch) {
      try await self.store.history(of: BranchName(branch))
    }
    guard history.contains(id) else { throw .noSuchRevision(branch: branch, revision: id) }
    return DemoRevision(id: id, events: try await catalogue { try await self.store.events(at: id) })
  }

  // MARK: Proposals

  public func createProposal(
    grantID: String, token: String, key: UUID, title: String, branch: String, base: String,
    changes: EventChangeSet
  ) async throws(DemoError) -> DemoProposal {
    let author = try await validate(grantID: grantID, token: token).username
    if let existing = try await proposal(author: author, key: key) {
      let content = try await catalogue {
        try await self.store.events(at: existing.contentRevision)
      }
      let wanted = try await catalogue {
        changes.applied(to: try await self.store.events(at: base))
      }
      guard existing.title == title, existing.branch == branch, existing.baseRevision == base,
        Set(content) == Set(wanted)
      else { throw .idempotencyConflict(key) }
      return existing
    }
    let head = try await self.head(of: branch)
    guard head.id == base else { throw .headMoved(branch: branch, expected: base, actual: head.id) }
    let proposed = changes.applied(to: head.events)
    do {
      let changeset = try await store.changes(editing: base) { db in
        try EventTable.write(proposed, to: db)
      }
      let record = try await store.propose(
        SQLiteProposalSubmission(
          idempotencyKey: key, title: title, summary: "", author: author,
          target: WorkspaceBranchReference(branch: BranchName(branch), revision: base),
          changeset: changeset.changeset))
      return DemoProposal(
        id: record.id, title: title, author: author, branch: branch, baseRevision: base,
        contentRevision: record.contentRevision,
        changes: EventChangeSet.between(baseline: head.events, working: proposed),
        idempotencyKey: key, status: .open)
    } catch let mismatch as WorkspaceHeadMismatch {
      throw .headMoved(
        branch: branch, expected: base, actual: mismatch.actual.revision)
    } catch {
      throw Self.refusal(error, branch: branch)
    }
  }

  public func proposal(author: String, key: UUID) async throws(DemoError) -> DemoProposal? {
    try await allProposals().first { $0.author == author && $0.idempotencyKey == key }
  }

  public func listProposals() async throws(DemoError) -> [DemoProposal] {
    try await allProposals()
  }

  public func allProposals() async throws(DemoError) -> [DemoProposal] {
    try await catalogue { try await self.store.demoProposals() }
  }

  public func merge(proposalID: String) async throws(DemoError) -> DemoRevision {
    guard let proposal = try await allProposals().first(where: { $0.id == proposalID }) else {
      throw .noSuchProposal(proposalID)
    }
    guard proposal.status == .open else { throw .proposalNotOpen(proposalID) }
    do {
      let merged = try await store.merge(proposalID: proposalID)
      return DemoRevision(id: merged.revision, events: try await store.events(at: merged.revision))
    } catch SQLiteWorkspaceError.mergeConflict(_, let conflicts) {
      let events = conflicts.map { conflict in
        conflict.row.primaryKey.map { key in
          if case .text(let id) = key { return id }
          return key.description
        }.joined(separator: ", ")
      }
      throw .mergeConflict(proposal: proposalID, events: events.sorted())
    } catch {
      throw Self.refusal(error, branch: proposal.branch)
    }
  }

  // MARK: Storage

  /// Runs `body` in one write transaction of the file.
  @discardableResult
  private func write<T: Sendable>(
    _ body: @escaping @Sendable (SQLiteConnection) throws -> T
  ) async throws(DemoError) -> T {
    do {
      return try await store.transaction(body)
    } catch let error as DemoError {
      throw error
    } catch {
      throw .unavailable("\(path): \(error)")
    }
  }

  /// Runs a catalogue read, its errors as the system's.
  private func catalogue<T: Sendable>(
    branch: String = "", _ body: () async throws -> T
  ) async throws(DemoError) -> T {
    do {
      return try await body()
    } catch {
      throw Self.refusal(error, branch: branch)
    }
  }

  /// The next number of counter `name` (`session`, `grant`), counted in the file.
  private static func next(_ name: String, on db: SQLiteConnection) throws -> Int64 {
    var last: Int64 = 0
    if case .integer(let value)? = try db.value(
      "SELECT value FROM demo_counters WHERE name = ?", [.text(name)])
    {
      last = value
    }
    guard last < Int64(DemoSystemSnapshot.largestCounter) else {
      throw DemoError.counterExhausted(name)
    }
    try db.run(
      "INSERT INTO demo_counters (name, value) VALUES (?, ?) "
        + "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      [.text(name), .integer(last + 1)])
    return last + 1
  }

  /// The system's refusal for an error of the store.
  private static func refusal(_ error: any Error, branch: String) -> DemoError {
    switch error {
    case let error as DemoError: error
    case SQLiteWorkspaceError.branchNotFound(let name): .noSuchBranch(name.rawValue)
    case SQLiteWorkspaceError.revisionNotFound(let revision):
      .noSuchRevision(branch: branch, revision: revision)
    case SQLiteWorkspaceError.proposalNotFound(let id): .noSuchProposal(id)
    case SQLiteWorkspaceError.proposalKeyReused(let key, _):
      UUID(uuidString: key).map(DemoError.idempotencyConflict) ?? .unavailable("\(error)")
    default: .unavailable("\(error)")
    }
  }
}
