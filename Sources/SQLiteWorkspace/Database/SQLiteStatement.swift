import CSQLite

/// One prepared statement of a ``SQLiteConnection``: bind, step, read columns, finalize on
/// release. Used by one thread at a time, like its connection.
final class SQLiteStatement {
  private let handle: OpaquePointer
  private let connection: SQLiteConnection
  let sql: String

  init(_ sql: String, on connection: SQLiteConnection) throws {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw connection.error(code, statement: sql)
    }
    self.handle = statement
    self.connection = connection
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `values` to the parameters `?1…?n`.
  func bind(_ values: [SQLiteValue]) throws {
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard values.count == expected else {
      throw SQLiteError(
        code: SQLITE_RANGE,
        message: "the statement takes \(expected) values, \(values.count) were given",
        statement: sql)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .null: code = sqlite3_bind_null(handle, index)
      case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
      case .real(let number): code = sqlite3_bind_double(handle, index, number)
      case .text(let text):
        code = sqlite3_bind_text64(
          handle, index, text, UInt64(text.utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
      case .blob(let bytes):
        code = bytes.withUnsafeBytes { buffer in
          // A zero-length blob is a blob, not NULL: SQLite needs a non-null pointer for it.
          sqlite3_bind_blob64(
            handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
            UInt64(buffer.count), csqlite_transient())
        }
      }
      guard code == SQLITE_OK else { throw connection.error(code, statement: sql) }
    }
  }

  /// Runs the statement one step: `true` when a row is ready to read, `false` when done.
  func step() throws -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw connection.error(code, statement: sql)
    }
  }

  /// Rewinds the statement and clears its bindings, to run it again.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  var columnCount: Int { Int(sqlite3_column_count(handle)) }

  func columnName(_ index: Int) -> String {
    sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
  }

  /// The value of column `index` of the current row.
  func column(_ index: Int) -> SQLiteValue {
    let column = Int32(index)
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
    case SQLITE_TEXT:
      let count = Int(sqlite3_column_bytes(handle, column))
      guard let text = sqlite3_column_text(handle, column) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, column))
      guard let bytes = sqlite3_column_blob(handle, column), count > 0 else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }

  /// Every value of the current row.
  func row() -> [SQLiteValue] { (0..<columnCount).map(column) }
}
