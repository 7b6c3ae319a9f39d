import ComposableWorkspace
import Foundation

/// A ``SQLiteWorkspaceRemote`` kept in one SQLite file: branches, revisions (each a whole
/// database), proposals (each a changeset on an exact revision) and their idempotency keys.
///
/// It is a remote on disk (like a bare Git repository) and what a server embeds to keep its
/// data: the file is in WAL mode with `synchronous = FULL`, every call is one transaction
/// (`BEGIN IMMEDIATE`), so a process killed at any moment loses nothing it answered and
/// leaves nothing half-made.
///
/// ```swift
/// let remote = try SQLiteRemoteStore(path: "catalogue.remote.sqlite")
/// try await remote.createBranch("main", author: "setup") { db in
///   try db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// }
/// let client = SQLiteWorkspaceClient(remote: remote, root: workspaces, capability: capability)
/// ```
///
/// Revision ids are `r1`, `r2`, …; proposal ids `P1`, `P2`, …, both in creation order.
public final class SQLiteRemoteStore: SQLiteWorkspaceRemote {
  /// The store's file.
  public let path: String
  private let connection: QueueConfined<SQLiteConnection>

  /// `PRAGMA application_id` of a store's file ("CWSR"): another database is refused.
  static let applicationID: Int64 = 0x4357_5352

  /// Opens the store at `path`, creating it when there is no file. Throws
  /// ``SQLiteWorkspaceError/notAWorkspaceDatabase(path:reason:)`` for a file that is not a
  /// store (another application's database, a damaged file, not a database).
  public init(path: String) throws {
    self.path = path
    // A new store is its owner's alone (its -wal and -shm files take the same mode).
    let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if created >= 0 { close(created) }
    let db: SQLiteConnection
    do {
      db = try SQLiteConnection(path: path, mode: .create)
      try Self.prepareSchema(on: db, path: path)
    } catch let error as SQLiteError {
      throw SQLiteWorkspaceError.notAWorkspaceDatabase(path: path, reason: error.description)
    }
    self.connection = QueueConfined(db, label: "SQLiteRemoteStore")
  }

  private static func prepareSchema(on db: SQLiteConnection, path: String) throws {
    let id = try db.value("PRAGMA application_id")?.integerValue ?? 0
    let tables = try db.value("SELECT count(*) FROM sqlite_schema")?.integerValue ?? 0
    guard id == applicationID || (id == 0 && tables == 0) else {
      throw SQLiteWorkspaceError.notAWorkspaceDatabase(
        path: path, reason: "it is another application's database, not a workspace remote")
    }
    try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    try db.transaction {
      try db.execute(
        """
        PRAGMA application_id = \(applicationID);
        CREATE TABLE IF NOT EXISTS revisions (
          number INTEGER PRIMARY KEY,
          parent INTEGER REFERENCES revisions (number),
          merged INTEGER REFERENCES revisions (number),
          author TEXT NOT NULL,
          message TEXT NOT NULL,
          image BLOB NOT NULL
        );
        CREATE TABLE IF NOT EXISTS branches (
          name TEXT PRIMARY KEY,
          head INTEGER NOT NULL REFERENCES revisions (number)
        );
        CREATE TABLE IF NOT EXISTS proposals (
          number INTEGER PRIMARY KEY,
          idempotency_key TEXT NOT NULL,
          title TEXT NOT NULL,
          summary TEXT NOT NULL,
          author TEXT NOT NULL,
          target_branch TEXT NOT NULL,
          target_revision INTEGER NOT NULL REFERENCES revisions (number),
          changeset BLOB NOT NULL,
          content_revision INTEGER NOT NULL REFERENCES revisions (number),
          merged_revision INTEGER REFERENCES revisions (number),
          UNIQUE (author, idempotency_key)
        );
        """)
    }
  }

  // MARK: Branches and revisions

  /// Creates `branch` at a first revision whose database `build` makes from an empty one.
  @discardableResult
  public func createBranch(
    _ branch: BranchName, author: String, message: String = "create",
    _ build: @escaping @Sendable (SQLiteConnection) throws -> Void
  ) async throws -> WorkspaceBranchReference {
    try await transaction { db in
      guard try Self.headNumber(of: branch, on: db) == nil else {
        throw SQLiteWorkspaceError.branchExists(branch)
      }
      let image = try Self.editing(Data(), build)
      let number = try Self.insertRevision(
        parent: nil, merged: nil, author: author, message: message, image: image, on: db)
      try db.run(
        "INSERT INTO branches (name, head) VALUES (?, ?)",
        [.text(branch.rawValue), .integer(number)])
      return WorkspaceBranchReference(branch: branch, revision: Self.revisionID(number))
    }
  }

  /// Creates `branch` at the current head of `source`.
  @discardableResult
  public func createBranch(
    _ branch: BranchName, from source: BranchName
  ) async throws -> WorkspaceBranchReference {
    try await transaction { db in
      guard try Self.headNumber(of: branch, on: db) == nil else {
        throw SQLiteWorkspaceError.branchExists(branch)
      }
      let head = try Self.requireHead(of: source, on: db)
      try db.run(
        "INSERT INTO branches (name, head) VALUES (?, ?)", [.text(branch.rawValue), .integer(head)])
      return WorkspaceBranchReference(branch: branch, revision: Self.revisionID(head))
    }
  }

  /// Adds a revision to `branch`: its head's database as `edit` changes it.
  @discardableResult
  public func commit(
    to branch: BranchName, author: String, message: String,
    _ edit: @escaping @Sendable (SQLiteConnection) throws -> Void
  ) async throws -> WorkspaceBranchReference {
    try await transaction { db in
      let head = try Self.requireHead(of: branch, on: db)
      let image = try Self.editing(try Self.image(of: head, on: db), edit)
      let number = try Self.insertRevision(
        parent: head, merged: nil, author: author, message: message, image: image, on: db)
      try Self.move(branch, to: number, on: db)
      return WorkspaceBranchReference(branch: branch, revision: Self.revisionID(number))
    }
  }

  /// The branches and their heads, by name.
  public func branches() async throws -> [WorkspaceBranchReference] {
    try await transaction { db in
      try db.rows("SELECT name, head FROM branches ORDER BY name").map { row in
        WorkspaceBranchReference(
          branch: BranchName(row[0].textValue),
          revision: Self.revisionID(row[1].integerValue ?? 0))
      }
    }
  }

  public func head(of branch: BranchName) async throws -> WorkspaceBranchReference {
    try await transaction { db in
      WorkspaceBranchReference(
        branch: branch, revision: Self.revisionID(try Self.requireHead(of: branch, on: db)))
    }
  }

  public func image(of revision: String) async throws -> Data {
    try await transaction { db in
      guard let number = Self.revisionNumber(revision) else {
        throw SQLiteWorkspaceError.revisionNotFound(revision)
      }
      return try Self.image(of: number, on: db)
    }
  }

  /// The revisions of `branch` from its head back to its first, following first parents
  /// (a merge's first parent is the branch's head it landed on).
  public func history(of branch: BranchName) async throws -> [String] {
    try await transaction { db in
      _ = try Self.requireHead(of: branch, on: db)
      return try db.rows(
        """
        WITH RECURSIVE line(number) AS (
          SELECT head FROM branches WHERE name = ?
          UNION ALL
          SELECT revisions.parent FROM revisions JOIN line ON revisions.number = line.number
          WHERE revisions.parent IS NOT NULL
        )
        SELECT number FROM line
        """, [.text(branch.rawValue)]
      ).map { Self.revisionID($0[0].integerValue ?? 0) }
    }
  }

  /// Runs `body` in one write transaction on the store's connection: for a server that
  /// embeds the store and keeps tables of its own in the same file (named other than
  /// `revisions`, `branches` and `proposals`), so its writes are as durable and as
  /// serialized as the store's.
  public func transaction<T: Sendable>(
    _ body: @escaping @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await connection.perform { db in try db.transaction { try body(db) } }
  }

  // MARK: Proposals

  public func propose(_ submission: SQLiteProposalSubmission) async throws -> ProposalRecord {
    try await transaction { db in
      if let existing = try Self.proposal(
        keyed: submission.idempotencyKey, by: submission.author, on: db)
      {
        return try Self.answerRetry(of: submission, existing: existing, on: db)
      }
      let target = submission.target
      let head = try Self.requireHead(of: target.branch, on: db)
      guard Self.revisionID(head) == target.revision else {
        throw WorkspaceHeadMismatch(
          expected: target,
          actual: WorkspaceBranchReference(branch: target.branch, revision: Self.revisionID(head)))
      }
      let changes = try SQLiteChangeSet(changeset: submission.changeset)
      let (image, conflicts) = try Self.applying(changes, to: try Self.image(of: head, on: db))
      guard conflicts.isEmpty else {
        throw SQLiteWorkspaceError.malformedChangeset(
          "it does not apply to its own target \(target): "
            + conflicts.map(\.description).joined(separator: "; "))
      }
      let content = try Self.insertRevision(
        parent: head, merged: nil, author: submission.author, message: submission.title,
        image: image, on: db)
      let number =
        try db.value(
          """
          INSERT INTO proposals (idempotency_key, title, summary, author, target_branch,
            target_revision, changeset, content_revision)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING number
          """,
          [
            .text(submission.idempotencyKey.uuidString), .text(submission.title),
            .text(submission.summary), .text(submission.author), .text(target.branch.rawValue),
            .integer(head), .blob([UInt8](submission.changeset)), .integer(content),
          ])?.integerValue ?? 0
      return ProposalRecord(
        id: Self.proposalID(number), contentRevision: Self.revisionID(content), target: target)
    }
  }

  public func proposals() async throws -> [SQLiteProposal] {
    try await transaction { db in
      try db.rows("SELECT \(Self.proposalColumns) FROM proposals ORDER BY number")
        .map(Self.decodeProposal)
    }
  }

  public func merge(proposalID id: String) async throws -> WorkspaceBranchReference {
    try await transaction { db in
      guard let number = Self.proposalNumber(id),
        let row = try db.rows(
          "SELECT \(Self.proposalColumns), changeset FROM proposals WHERE number = ?",
          [.integer(number)]
        ).first
      else { throw SQLiteWorkspaceError.proposalNotFound(id) }
      let proposal = Self.decodeProposal(row)
      let branch = proposal.record.target.branch
      let head = try Self.requireHead(of: branch, on: db)
      guard !proposal.isMerged else {
        return WorkspaceBranchReference(branch: branch, revision: Self.revisionID(head))
      }
      let content = Self.revisionNumber(proposal.record.contentRevision) ?? 0
      let merged: Int64
      if Self.revisionID(head) == proposal.record.target.revision {
        merged = content
      } else {
        guard case .blob(let bytes) = row[Self.proposalColumnCount] else {
          throw SQLiteWorkspaceError.malformedChangeset("proposal \(id) holds no changeset")
        }
        let changes = try SQLiteChangeSet(changeset: Data(bytes))
        let (image, conflicts) = try Self.applying(changes, to: try Self.image(of: head, on: db))
        guard conflicts.isEmpty else {
          throw SQLiteWorkspaceError.mergeConflict(proposal: id, conflicts: conflicts)
        }
        merged = try Self.insertRevision(
          parent: head, merged: content, author: proposal.author,
          message: "merge \(id): \(proposal.title)", image: image, on: db)
      }
      try Self.move(branch, to: merged, on: db)
      try db.run(
        "UPDATE proposals SET merged_revision = ? WHERE number = ?",
        [.integer(merged), .integer(number)])
      return WorkspaceBranchReference(branch: branch, revision: Self.revisionID(merged))
    }
  }

  // MARK: Rows

  private static let proposalColumns =
    "number, idempotency_key, title, summary, author, target_branch, target_revision, "
    + "content_revision, merged_revision"
  private static let proposalColumnCount = 9

  private static func decodeProposal(_ row: [SQLiteValue]) -> SQLiteProposal {
    SQLiteProposal(
      record: ProposalRecord(
        id: proposalID(row[0].integerValue ?? 0),
        contentRevision: revisionID(row[7].integerValue ?? 0),
        target: WorkspaceBranchReference(
          branch: BranchName(row[5].textValue), revision: revisionID(row[6].integerValue ?? 0))),
      idempotencyKey: UUID(uuidString: row[1].textValue),
      title: row[2].textValue, summary: row[3].textValue, author: row[4].textValue,
      mergedRevision: row[8].integerValue.map(revisionID))
  }

  private static func proposal(
    keyed key: UUID, by author: String, on db: SQLiteConnection
  ) throws -> (proposal: SQLiteProposal, changeset: SQLiteValue)? {
    try db.rows(
      "SELECT \(proposalColumns), changeset FROM proposals "
        + "WHERE author = ? AND idempotency_key = ?",
      [.text(author), .text(key.uuidString)]
    ).first.map { (decodeProposal($0), $0[proposalColumnCount]) }
  }

  /// A submission under a key that already names a proposal: the same attempt again (same
  /// target, same changes) answers its record; anything else is a reused key.
  private static func answerRetry(
    of submission: SQLiteProposalSubmission,
    existing: (proposal: SQLiteProposal, changeset: SQLiteValue), on db: SQLiteConnection
  ) throws -> ProposalRecord {
    let record = existing.proposal.record
    guard record.target == submission.target,
      existing.changeset == .blob([UInt8](submission.changeset))
    else {
      throw SQLiteWorkspaceError.proposalKeyReused(
        key: submission.idempotencyKey.uuidString, existing: record.id)
    }
    return record
  }

  private static func headNumber(of branch: BranchName, on db: SQLiteConnection) throws -> Int64? {
    try db.value("SELECT head FROM branches WHERE name = ?", [.text(branch.rawValue)])?
      .integerValue
  }

  private static func requireHead(of branch: BranchName, on db: SQLiteConnection) throws -> Int64 {
    guard let head = try headNumber(of: branch, on: db) else {
      throw SQLiteWorkspaceError.branchNotFound(branch)
    }
    return head
  }

  private static func move(_ branch: BranchName, to number: Int64, on db: SQLiteConnection) throws {
    try db.run(
      "UPDATE branches SET head = ? WHERE name = ?", [.integer(number), .text(branch.rawValue)])
  }

  private static func image(of number: Int64, on db: SQLiteConnection) throws -> Data {
    guard
      let value = try db.value("SELECT image FROM revisions WHERE number = ?", [.integer(number)])
    else { throw SQLiteWorkspaceError.revisionNotFound(revisionID(number)) }
    guard case .blob(let bytes) = value else { return Data() }
    return Data(bytes)
  }

  private static func insertRevision(
    parent: Int64?, merged: Int64?, author: String, message: String, image: Data,
    on db: SQLiteConnection
  ) throws -> Int64 {
    try db.value(
      "INSERT INTO revisions (parent, merged, author, message, image) VALUES (?, ?, ?, ?, ?) "
        + "RETURNING number",
      [
        parent.map(SQLiteValue.integer) ?? .null, merged.map(SQLiteValue.integer) ?? .null,
        .text(author), .text(message), .blob([UInt8](image)),
      ])?.integerValue ?? 0
  }

  /// `image` as `edit` changes it.
  private static func editing(
    _ image: Data, _ edit: (SQLiteConnection) throws -> Void
  ) throws -> Data {
    let db = try SQLiteConnection.inMemory(image: image)
    try db.transaction { try edit(db) }
    return try db.image()
  }

  /// `image` with `changes` applied, or the conflicts (then the image is unused).
  private static func applying(
    _ changes: SQLiteChangeSet, to image: Data
  ) throws -> (Data, [SQLiteConflict]) {
    let db = try SQLiteConnection.inMemory(image: image)
    let conflicts = try SQLiteChangesetApplier.apply(changes, to: db)
    return (conflicts.isEmpty ? try db.image() : Data(), conflicts)
  }

  static func revisionID(_ number: Int64) -> String { "r\(number)" }
  static func proposalID(_ number: Int64) -> String { "P\(number)" }

  static func revisionNumber(_ id: String) -> Int64? {
    id.hasPrefix("r") ? Int64(id.dropFirst()) : nil
  }

  /// `P7` (or `p7`) → 7.
  static func proposalNumber(_ id: String) -> Int64? {
    id.hasPrefix("P") || id.hasPrefix("p") ? Int64(id.dropFirst()) : nil
  }
}
