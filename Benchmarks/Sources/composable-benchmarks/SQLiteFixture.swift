import ComposableAuthoring
import ComposableWorkspace
import Foundation
import SQLiteWorkspace

/// One size of the `sqlite` group: a ``SQLiteRemoteStore`` whose branch `main` has one
/// revision, a table `items` of `rows` generated rows, and the workspace `benchmark` prepared
/// on it through a ``SQLiteWorkspaceClient``, with 100 rows changed in its working database
/// (see ``changeRows()``). Everything is in `folder`, which ``remove()`` deletes:
///
/// ```text
/// <folder>/remote.sqlite                                the store (WAL, synchronous = FULL)
/// <folder>/workspaces/benchmark/working.sqlite          the working database (WAL)
/// <folder>/workspaces/benchmark/baseline-r1.sqlite      the baseline, r1's database
/// ```
///
/// Row `i` (1…rows) is `(i, 'Item i', i * 0.25, 16 bytes: the hex digits of i and i * 7919)`.
struct SQLiteBenchmarkWorkspace {
  let folder: URL
  let rows: Int
  let remote: SQLiteRemoteStore
  let client: SQLiteWorkspaceClient
  let source: SQLiteWorkspaceDatabase
  let baseline: WorkspaceBranchReference
  /// How long `createBranch` took to build and store the first revision.
  let build: Duration
  /// How long `prepareSource` took (the image read from the store, both files written).
  let prepare: Duration

  static let schema = """
    CREATE TABLE items (
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      amount REAL NOT NULL,
      payload BLOB NOT NULL
    )
    """

  /// Every row in one statement: one transaction, one prepared `INSERT … SELECT` over a
  /// recursive count, run by SQLite's own VM without a call per row.
  static let fill = """
    WITH RECURSIVE counter (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM counter WHERE i < ?1)
    INSERT INTO items (id, title, amount, payload)
    SELECT i, 'Item ' || i, i * 0.25, CAST(printf('%08x%08x', i, i * 7919) AS BLOB) FROM counter
    """

  /// The capability every call of the benchmark's client reads.
  static let context = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "bench@example.com"),
    grant: AuthoringGrant(rawValue: "grant-bench"),
    capabilities: [.edit, .publish]
  )

  /// Makes the store in `folder` (created), builds `main` with `rows` rows, prepares the
  /// workspace and changes its 100 rows. Removes `folder` when a step fails.
  @MainActor
  static func make(rows: Int, in folder: URL) async throws -> SQLiteBenchmarkWorkspace {
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let remote = try SQLiteRemoteStore(path: folder.appendingPathComponent("remote.sqlite").path)
      let count = Int64(rows)
      let build = try await time {
        try await remote.createBranch("main", author: "setup", message: "\(rows) rows") { db in
          try db.execute(schema)
          try check(
            try db.run(fill, [.integer(count)]) == rows, "sqlite: the fill made too few rows")
        }
      }
      let client = SQLiteWorkspaceClient(
        remote: remote, root: folder.appendingPathComponent("workspaces", isDirectory: true)
      ) { context }
      let session = Latest<WorkspaceSession<SQLiteWorkspaceDatabase>>()
      let prepare = try await time { session.value = try await client.prepareSource("benchmark") }
      guard let source = session.value?.source, let baseline = session.value?.baseline else {
        throw BenchmarkFailure("sqlite: prepareSource answered nothing")
      }
      let workspace = SQLiteBenchmarkWorkspace(
        folder: folder, rows: rows, remote: remote, client: client, source: source,
        baseline: baseline, build: build, prepare: prepare)
      try await workspace.changeRows()
      return workspace
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
  }

  /// The rows ``changeRows()`` updates: 50, one every `rows / 50`, from 1.
  var updatedIDs: [Int64] { (0..<50).map { Int64(1 + $0 * (rows / 50)) } }
  /// The rows it inserts: 25 new keys after the last.
  var insertedIDs: [Int64] { (1...25).map { Int64(rows + $0) } }
  /// The rows it deletes: 25, one every `rows / 25`, from `rows / 100` (never an updated one).
  var deletedIDs: [Int64] { (0..<25).map { Int64(rows / 100 + $0 * (rows / 25)) } }

  /// Changes 100 rows of the working database in one write: updates every column but the key
  /// of ``updatedIDs``, inserts ``insertedIDs``, deletes ``deletedIDs``.
  func changeRows() async throws {
    let (updated, inserted, deleted) = (updatedIDs, insertedIDs, deletedIDs)
    try await source.write { db in
      for id in updated {
        let changed = try db.run(
          "UPDATE items SET title = ?, amount = ?, payload = ? WHERE id = ?",
          [
            .text("Changed item \(id)"), .real(Double(id) * 0.5), .blob(Self.payload(id)),
            .integer(id),
          ])
        try check(changed == 1, "sqlite: row \(id) was not updated")
      }
      for id in inserted {
        try db.run(
          "INSERT INTO items (id, title, amount, payload) VALUES (?, ?, ?, ?)",
          [
            .integer(id), .text("New item \(id)"), .real(Double(id) * 0.25),
            .blob(Self.payload(id)),
          ])
      }
      for id in deleted {
        try check(
          try db.run("DELETE FROM items WHERE id = ?", [.integer(id)]) == 1,
          "sqlite: row \(id) was not deleted")
      }
    }
  }

  /// The change set a capture must answer: the 100 rows, each once, of the right kind.
  func checkCaptured(_ changes: SQLiteChangeSet) throws {
    var kinds: [Int64: SQLiteRowChange.Kind] = [:]
    for change in changes.changes {
      guard change.table == "items", case .integer(let id)? = change.primaryKey.first else {
        throw BenchmarkFailure("sqlite capture: unexpected change \(change)")
      }
      kinds[id] = change.kind
    }
    var expected: [Int64: SQLiteRowChange.Kind] = [:]
    for id in updatedIDs { expected[id] = .update }
    for id in insertedIDs { expected[id] = .insert }
    for id in deletedIDs { expected[id] = .delete }
    try check(
      changes.changes.count == 100 && kinds == expected,
      "sqlite capture: \(changes.changes.count) changes, not the 100 rows changed")
  }

  /// The baseline's database file the workspace attached.
  var baselineFile: URL {
    source.directory.appendingPathComponent("baseline-\(baseline.revision).sqlite")
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }

  /// 16 bytes for row `id`'s changed payload.
  static func payload(_ id: Int64) -> [UInt8] {
    (0..<16).map { UInt8(truncatingIfNeeded: id &* 31 &+ Int64($0)) }
  }
}
