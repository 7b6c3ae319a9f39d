import CSQLite
import SQLiteWorkspace

/// Reads a database file the way another tool would (`sqlite3 file 'select …'`): its own
/// read-only connection through SQLite's C API, nothing of the integration's.
enum ExternalReader {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func rows(_ sql: String, in path: String) throws -> [[SQLiteValue]] {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
      sqlite3_close(db)
      throw Failure(description: "cannot open \(path)")
    }
    defer { sqlite3_close(db) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(description: String(cString: sqlite3_errmsg(db)))
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[SQLiteValue]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          switch sqlite3_column_type(statement, column) {
          case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
          case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
          case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
          case SQLITE_BLOB:
            .blob(
              Array(
                UnsafeRawBufferPointer(
                  start: sqlite3_column_blob(statement, column),
                  count: Int(sqlite3_column_bytes(statement, column)))))
          default: .null
          }
        })
    }
    return rows
  }
}
