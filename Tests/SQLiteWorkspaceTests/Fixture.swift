import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import ComposableWorkspaceTesting
import Foundation
import SQLiteWorkspace

extension AuthoringContext {
  static let ada = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "ada@example.com"),
    grant: AuthoringGrant(rawValue: "grant-ada"),
    capabilities: [.edit, .publish]
  )
}

/// A fresh folder under the system's temporary folder, removed by the test.
struct TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sqlite-workspace-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A remote store with `main` (and `published`) holding an `events` table, and a client over
/// it whose capability a test can revoke.
struct SQLiteHarness: Sendable {
  let folder: URL
  let remote: SQLiteRemoteStore
  let capability: LockIsolated<AuthoringContext?>
  let sqlite: SQLiteWorkspaceClient

  static let schema = """
    CREATE TABLE events (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      venue TEXT,
      poster BLOB
    )
    """

  static func make(in folder: URL) async throws -> SQLiteHarness {
    let place = folder.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
    let remote = try SQLiteRemoteStore(path: place.appendingPathComponent("remote.sqlite").path)
    try await remote.createBranch("main", author: "setup") { db in
      try db.execute(schema)
      try db.run("INSERT INTO events (id, title, venue) VALUES (1, 'Lisboa', 'Coliseu')")
    }
    try await remote.createBranch("published", from: "main")
    let capability = LockIsolated<AuthoringContext?>(.ada)
    let sqlite = SQLiteWorkspaceClient(
      remote: remote, root: place.appendingPathComponent("workspaces", isDirectory: true),
      capability: { capability.current })
    return SQLiteHarness(folder: place, remote: remote, capability: capability, sqlite: sqlite)
  }

  /// Someone else adds a row to `branch` on the remote.
  @discardableResult
  func commitElsewhere(
    on branch: BranchName = "main", id: Int64 = Int64.random(in: 5_000...9_999)
  ) async throws -> WorkspaceBranchReference {
    try await remote.commit(to: branch, author: "grace", message: "add \(id)") { db in
      try db.run("INSERT INTO events (id, title) VALUES (?, 'elsewhere')", [.integer(id)])
    }
  }

  func subject() -> WorkspaceContractSubject<SQLiteWorkspaceDatabase, SQLiteChangeSet> {
    let edits = LockIsolated<Int64>(100)
    return WorkspaceContractSubject(
      client: sqlite.client,
      workspaceID: "catalogue",
      otherBranch: "published",
      edit: { database in
        let id = edits.withValue { next in
          next += 1
          return next
        }
        try await database.write { db in
          try db.run("INSERT INTO events (id, title) VALUES (?, 'edited')", [.integer(id)])
        }
        return database
      },
      moveRemoteHead: { branch in try await commitElsewhere(on: branch) },
      revokeAuthorization: { capability.setValue(nil) },
      proposalIDs: { Set(try await remote.proposals().map(\.record.id)) }
    ).comparingSources()
  }
}

/// Every row of `table` in `database`'s working database, by key, with each value's storage
/// class as SQLite reports it.
func rows(
  of table: String, in database: SQLiteWorkspaceDatabase, reference: Bool = false
) async throws -> [[SQLiteValue]] {
  let query = "SELECT *, \(typeofColumns(table)) FROM \(table) ORDER BY 1, 2"
  return reference
    ? try await database.readReference { db in try db.rows(query) }
    : try await database.read { db in try db.rows(query) }
}

private func typeofColumns(_ table: String) -> String {
  switch table {
  case "events": "typeof(id), typeof(title), typeof(venue), typeof(poster)"
  default: "typeof(region), typeof(code), typeof(label), typeof(amount), typeof(payload)"
  }
}
