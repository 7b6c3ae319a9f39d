import ComposableWorkspace
import Foundation

/// Where a SQLite workspace's revisions and proposals live: each revision is a whole database,
/// each proposal a changeset against the exact revision it was captured on.
///
/// ``SQLiteRemoteStore`` keeps one in a SQLite file (a remote on disk, and what a server
/// embeds); a server reached over HTTP is another conformer.
public protocol SQLiteWorkspaceRemote: Sendable {
  /// The current head of `branch`; throws ``SQLiteWorkspaceError/branchNotFound(_:)``.
  func head(of branch: BranchName) async throws -> WorkspaceBranchReference

  /// The database of `revision`, as a database file's bytes; throws
  /// ``SQLiteWorkspaceError/revisionNotFound(_:)``.
  func image(of revision: String) async throws -> Data

  /// Creates the proposal `submission` describes, once per idempotency key of its author
  /// (keys are the caller's: another author's submission under the same key is a proposal of
  /// its own). A submission whose key already names one of its author's proposals answers
  /// that proposal's record when the content is the same (whatever the target's head is now),
  /// and throws ``SQLiteWorkspaceError/proposalKeyReused(key:existing:)`` when it differs.
  /// Otherwise it throws `WorkspaceHeadMismatch` when the target's head is not
  /// `submission.target`, and creates nothing.
  func propose(_ submission: SQLiteProposalSubmission) async throws -> ProposalRecord

  /// Every proposal, oldest first.
  func proposals() async throws -> [SQLiteProposal]

  /// Merges proposal `id` into its target branch and answers the branch's new head; a merged
  /// proposal answers the current head and changes nothing. Throws
  /// ``SQLiteWorkspaceError/mergeConflict(proposal:conflicts:)`` — merging nothing — when the
  /// branch changed since what the proposal changes, as SQLite applies a changeset: a column the
  /// proposal updates holds another value now, a row it updates or deletes is gone, a key it
  /// inserts exists (an update of other columns of the same row merges); and
  /// ``SQLiteWorkspaceError/schemaChanged(table:detail:)`` when a table it changes has other
  /// columns now.
  func merge(proposalID id: String) async throws -> WorkspaceBranchReference
}

extension SQLiteWorkspaceRemote {
  /// Runs a read-only query on the database of `revision` (a reviewer's look at a revision,
  /// without a workspace), in a private in-memory copy of it.
  ///
  /// ```swift
  /// let titles = try await remote.rows("SELECT title FROM events ORDER BY id", at: "r3")
  /// ```
  public func rows(
    _ sql: String, _ values: [SQLiteValue] = [], at revision: String
  ) async throws -> [[SQLiteValue]] {
    let db = try SQLiteConnection.inMemory(image: try await image(of: revision))
    try db.execute("PRAGMA query_only = ON")
    return try db.rows(sql, values)
  }

  /// The changes `edit` makes to the database of `revision`, made on a private in-memory copy
  /// (the remote is not changed): what a server turns a request's edits into before it
  /// proposes them.
  ///
  /// ```swift
  /// let changes = try await remote.changes(editing: "r3") { db in
  ///   try db.run("UPDATE events SET title = ? WHERE id = ?", ["Gala", "e1"])
  /// }
  /// ```
  public func changes(
    editing revision: String, _ edit: @escaping @Sendable (SQLiteConnection) throws -> Void
  ) async throws -> SQLiteChangeSet {
    let image = try await image(of: revision)
    let db = try SQLiteConnection.inMemory(image: image)
    try db.attach(image: image, as: "baseline")
    try db.transaction { try edit(db) }
    return try SQLiteDiff.changes(in: "main", against: "baseline", on: db)
  }
}

/// What a client sends to create a proposal.
public struct SQLiteProposalSubmission: Hashable, Sendable, Codable {
  /// The publication attempt's key (`ProposalRequest.idempotencyKey`).
  public var idempotencyKey: UUID
  public var title: String
  public var summary: String
  /// Who proposes it (the capability's identity).
  public var author: String
  /// The exact revision the changes were captured against.
  public var target: WorkspaceBranchReference
  /// The changeset bytes (``SQLiteChangeSet/changeset``).
  public var changeset: Data

  public init(
    idempotencyKey: UUID, title: String, summary: String, author: String,
    target: WorkspaceBranchReference, changeset: Data
  ) {
    self.idempotencyKey = idempotencyKey
    self.title = title
    self.summary = summary
    self.author = author
    self.target = target
    self.changeset = changeset
  }
}

/// A proposal as the remote keeps it.
public struct SQLiteProposal: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The record: id, content revision and target.
  public var record: ProposalRecord
  /// The key its author's client created it under; `nil` where the reader may not see it (a
  /// server shows a record's key to its author only).
  public var idempotencyKey: UUID?
  public var title: String
  public var summary: String
  public var author: String
  /// The revision of the target branch that merged it; `nil` while open.
  public var mergedRevision: String?

  public init(
    record: ProposalRecord, idempotencyKey: UUID?, title: String, summary: String, author: String,
    mergedRevision: String?
  ) {
    self.record = record
    self.idempotencyKey = idempotencyKey
    self.title = title
    self.summary = summary
    self.author = author
    self.mergedRevision = mergedRevision
  }

  public var isMerged: Bool { mergedRevision != nil }

  /// `P2 "Add Porto" by ada → main@r3 (open)`.
  public var description: String {
    "\(record.id) \"\(title)\" by \(author) → \(record.target) "
      + (mergedRevision.map { "(merged in \($0))" } ?? "(open)")
  }
}
