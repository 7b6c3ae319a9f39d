import CSQLite
import Foundation

/// The difference between two schemas of one connection (the working database and its
/// attached baseline), as the session extension computes it (`sqlite3session_diff`).
///
/// The session extension's own diff is used, not a hand-written one: it compares rows by
/// primary key in SQLite's own C, produces exactly the changeset format that is applied later
/// (`sqlite3changeset_apply`), and keeps every value as stored.
enum SQLiteDiff {
  /// The changes that turn `base` into `target` (both attached schemas of `connection`), over
  /// every user table but `excluded`.
  ///
  /// Throws ``SQLiteWorkspaceError/schemaChanged(table:detail:)`` when the two schemas do not
  /// have the same tables with the same columns and keys, and
  /// ``SQLiteWorkspaceError/tableWithoutPrimaryKey(_:)`` for a table without a primary key
  /// (its rows have no identity a change could name).
  static func changes(
    in target: String, against base: String, on connection: SQLiteConnection,
    excluding excluded: Set<String> = []
  ) throws -> SQLiteChangeSet {
    try connection.execute("SAVEPOINT workspace_diff")
    defer { try? connection.execute("RELEASE workspace_diff") }
    let targetTables = try SQLiteTableShape.tables(in: target, of: connection, excluding: excluded)
    let baseTables = try SQLiteTableShape.tables(in: base, of: connection, excluding: excluded)
    try checkSameShape(target: targetTables, base: baseTables)
    for table in targetTables.values {
      try checkNoNullKey(table, in: [target, base], on: connection)
    }

    var session: OpaquePointer?
    let created = sqlite3session_create(connection.handle, target, &session)
    guard created == SQLITE_OK, let session else {
      throw connection.error(created, statement: "sqlite3session_create")
    }
    defer { sqlite3session_delete(session) }
    for name in targetTables.keys.sorted() {
      let attached = sqlite3session_attach(session, name)
      guard attached == SQLITE_OK else {
        throw connection.error(attached, statement: "sqlite3session_attach \(name)")
      }
      var message: UnsafeMutablePointer<CChar>?
      let diffed = sqlite3session_diff(session, base, name, &message)
      defer { sqlite3_free(message) }
      guard diffed == SQLITE_OK else {
        let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(diffed))
        throw SQLiteError(code: diffed, message: text, statement: "sqlite3session_diff \(name)")
      }
    }
    var size: Int32 = 0
    var bytes: UnsafeMutableRawPointer?
    let produced = sqlite3session_changeset(session, &size, &bytes)
    defer { sqlite3_free(bytes) }
    guard produced == SQLITE_OK else {
      throw connection.error(produced, statement: "sqlite3session_changeset")
    }
    let changeset = bytes.map { Data(bytes: $0, count: Int(size)) } ?? Data()
    return SQLiteChangeSet(
      verified: changeset, changes: try SQLiteChangesetReader.changes(in: changeset))
  }

  /// Refuses a table with a row whose key has a NULL (possible in a rowid table whose key is
  /// not an `INTEGER PRIMARY KEY`): the session extension records no change to such a row, so
  /// it would vanish from the manifest without a word.
  private static func checkNoNullKey(
    _ table: SQLiteTableShape, in schemas: [String], on connection: SQLiteConnection
  ) throws {
    let keys = table.columns.filter { $0.primaryKeyPosition > 0 }
    if keys.count == 1, keys[0].declaredType.uppercased() == "INTEGER" { return }
    let condition = keys.map { "\(SQLiteName.quoted($0.name)) IS NULL" }
      .joined(separator: " OR ")
    for schema in schemas {
      let found = try connection.value(
        "SELECT 1 FROM \(SQLiteName.quoted(schema)).\(SQLiteName.quoted(table.name)) "
          + "WHERE \(condition) LIMIT 1")
      if found != nil { throw SQLiteWorkspaceError.nullPrimaryKey(table.name) }
    }
  }

  private static func checkSameShape(
    target: [String: SQLiteTableShape], base: [String: SQLiteTableShape]
  ) throws {
    for name in Set(target.keys).union(base.keys).sorted() {
      switch (base[name], target[name]) {
      case (nil, _):
        throw SQLiteWorkspaceError.schemaChanged(
          table: name, detail: "the table is not in the baseline")
      case (_, nil):
        throw SQLiteWorkspaceError.schemaChanged(
          table: name, detail: "the table is in the baseline but not in the working database")
      case (let before?, let after?):
        guard before == after else {
          throw SQLiteWorkspaceError.schemaChanged(
            table: name,
            detail: "columns were \(before.columnList), now \(after.columnList)")
        }
        guard after.hasPrimaryKey else { throw SQLiteWorkspaceError.tableWithoutPrimaryKey(name) }
      }
    }
  }
}

extension SQLiteTableShape {
  /// `(id INTEGER key, title TEXT)`.
  fileprivate var columnList: String {
    "("
      + columns.map { column in
        [column.name, column.declaredType, column.primaryKeyPosition > 0 ? "key" : ""]
          .filter { !$0.isEmpty }.joined(separator: " ")
      }.joined(separator: ", ") + ")"
  }
}
