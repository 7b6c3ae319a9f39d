import CSQLite
import Foundation

/// Applies a changeset to a connection's `main` database, all or nothing
/// (`sqlite3changeset_apply`).
enum SQLiteChangesetApplier {
  /// Applies `changes` to the `main` database of `connection`. Answers the rows that conflict
  /// — every one of them, and then nothing was applied — or `[]` when every change applied.
  ///
  /// Runs inside a savepoint, so it composes with a caller's transaction: the caller commits
  /// the applied changes with its own writes, or rolls everything back.
  static func apply(
    _ changes: SQLiteChangeSet, to connection: SQLiteConnection
  ) throws -> [SQLiteConflict] {
    guard !changes.changeset.isEmpty else { return [] }
    guard changes.changeset.count <= Int(Int32.max) else {
      throw SQLiteWorkspaceError.malformedChangeset("it is larger than SQLite takes (2 GiB)")
    }
    try checkShapes(of: changes, on: connection)
    try connection.execute("SAVEPOINT workspace_apply")
    let log = ConflictLog()
    var bytes = [UInt8](changes.changeset)
    let code = bytes.withUnsafeMutableBytes { buffer in
      withExtendedLifetime(log) {
        // Our savepoint is the only one: SQLite's own (dropped by NOSAVEPOINT) would be gone
        // after an error that rolls the transaction back, and hide that error's code.
        sqlite3changeset_apply_v2(
          connection.handle, Int32(buffer.count), buffer.baseAddress, nil,
          { context, kind, iterator in
            guard let context, let iterator else { return SQLITE_CHANGESET_ABORT }
            let log = Unmanaged<ConflictLog>.fromOpaque(context).takeUnretainedValue()
            return log.record(kind, at: iterator)
          },
          Unmanaged.passUnretained(log).toOpaque(), nil, nil, SQLITE_CHANGESETAPPLY_NOSAVEPOINT)
      }
    }
    guard code == SQLITE_OK, log.conflicts.isEmpty else {
      // The error itself (SQLITE_FULL, an I/O error) may have rolled the whole transaction
      // back already; then there is no savepoint left to return to.
      let failure = log.failure ?? (code == SQLITE_OK ? nil : connection.error(code))
      if connection.isInTransaction {
        try? connection.execute("ROLLBACK TO workspace_apply; RELEASE workspace_apply")
      }
      if let failure { throw failure }
      return log.conflicts
    }
    try connection.execute("RELEASE workspace_apply")
    return []
  }

  /// Refuses changes to a table the database does not have with the same columns and key:
  /// SQLite would skip them without a word (only a log line), and a merge would report
  /// success with rows missing.
  private static func checkShapes(
    of changes: SQLiteChangeSet, on connection: SQLiteConnection
  ) throws {
    let tables = try SQLiteTableShape.tables(in: "main", of: connection)
    var checked: Set<String> = []
    for change in changes.changes where checked.insert(change.table).inserted {
      guard let table = tables[change.table] else {
        throw SQLiteWorkspaceError.schemaChanged(
          table: change.table, detail: "the table is not in the database the changes apply to")
      }
      let columns = max(change.oldValues.count, change.newValues.count)
      let keys = table.columns.filter { $0.primaryKeyPosition > 0 }.count
      guard table.columns.count == columns, keys == change.primaryKey.count else {
        throw SQLiteWorkspaceError.schemaChanged(
          table: change.table,
          detail: "the changes have \(columns) columns (\(change.primaryKey.count) in the key), "
            + "the database \(table.columns.count) (\(keys) in the key)")
      }
    }
  }
}

/// The conflicts one application met; each is omitted so that all are found, then the whole
/// application is rolled back.
private final class ConflictLog {
  var conflicts: [SQLiteConflict] = []
  var failure: (any Error)?

  func record(_ kind: Int32, at iterator: OpaquePointer) -> Int32 {
    if kind == SQLITE_CHANGESET_FOREIGN_KEY {
      var count: Int32 = 0
      sqlite3changeset_fk_conflicts(iterator, &count)
      conflicts.append(
        SQLiteConflict(
          row: SQLiteRowID(table: "(foreign keys)", primaryKey: [.integer(Int64(count))]),
          reason: .constraint))
      return SQLITE_CHANGESET_OMIT
    }
    let change: SQLiteRowChange
    do {
      change = try SQLiteChangesetReader.change(at: iterator)
    } catch {
      failure = error
      return SQLITE_CHANGESET_ABORT
    }
    let reason: SQLiteConflict.Reason =
      switch kind {
      case SQLITE_CHANGESET_DATA: .changedOnBothSides
      case SQLITE_CHANGESET_NOTFOUND: .deletedOnOtherSide
      case SQLITE_CHANGESET_CONFLICT: .insertedOnBothSides
      default: .constraint
      }
    conflicts.append(SQLiteConflict(row: change.row, reason: reason))
    return SQLITE_CHANGESET_OMIT
  }
}
