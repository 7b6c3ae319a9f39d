import CSQLite
import Foundation

/// Decodes changeset bytes with the session extension's iterator.
enum SQLiteChangesetReader {
  /// Every row change in `changeset`, in its order.
  static func changes(in changeset: Data) throws -> [SQLiteRowChange] {
    guard !changeset.isEmpty else { return [] }
    guard changeset.count <= Int(Int32.max) else {
      throw SQLiteWorkspaceError.malformedChangeset("it is larger than SQLite takes (2 GiB)")
    }
    var bytes = [UInt8](changeset)
    return try bytes.withUnsafeMutableBytes { buffer in
      var iterator: OpaquePointer?
      let start = sqlite3changeset_start(
        &iterator, Int32(buffer.count), buffer.baseAddress)
      guard start == SQLITE_OK, let iterator else {
        throw SQLiteWorkspaceError.malformedChangeset("it cannot be read (SQLite code \(start))")
      }
      var finalized = false
      defer { if !finalized { sqlite3changeset_finalize(iterator) } }
      var changes: [SQLiteRowChange] = []
      var code = sqlite3changeset_next(iterator)
      while code == SQLITE_ROW {
        changes.append(try change(at: iterator))
        code = sqlite3changeset_next(iterator)
      }
      finalized = true
      let finish = sqlite3changeset_finalize(iterator)
      guard code == SQLITE_DONE, finish == SQLITE_OK else {
        throw SQLiteWorkspaceError.malformedChangeset(
          "it ends early or is damaged (SQLite code \(code == SQLITE_DONE ? finish : code))")
      }
      return changes
    }
  }

  /// The change the iterator is on (also inside a conflict handler).
  static func change(at iterator: OpaquePointer) throws -> SQLiteRowChange {
    var tableName: UnsafePointer<CChar>?
    var columnCount: Int32 = 0
    var operation: Int32 = 0
    var indirect: Int32 = 0
    let code = sqlite3changeset_op(iterator, &tableName, &columnCount, &operation, &indirect)
    guard code == SQLITE_OK, let tableName else {
      throw SQLiteWorkspaceError.malformedChangeset("a change cannot be read (SQLite code \(code))")
    }
    var keyFlags: UnsafeMutablePointer<UInt8>?
    var keyColumns: Int32 = 0
    sqlite3changeset_pk(iterator, &keyFlags, &keyColumns)
    let kind: SQLiteRowChange.Kind
    switch operation {
    case SQLITE_INSERT: kind = .insert
    case SQLITE_UPDATE: kind = .update
    default: kind = .delete
    }
    let columns = Int(columnCount)
    let old =
      kind == .insert ? [] : values(of: iterator, count: columns, side: sqlite3changeset_old)
    let new =
      kind == .delete ? [] : values(of: iterator, count: columns, side: sqlite3changeset_new)
    let keyed = kind == .insert ? new : old
    var primaryKey: [SQLiteValue] = []
    for column in 0..<columns where keyFlags.map({ $0[column] != 0 }) ?? false {
      primaryKey.append(keyed[column] ?? .null)
    }
    return SQLiteRowChange(
      table: String(cString: tableName), kind: kind, primaryKey: primaryKey, oldValues: old,
      newValues: new)
  }

  private static func values(
    of iterator: OpaquePointer, count: Int,
    side: (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
  ) -> [SQLiteValue?] {
    (0..<count).map { column in
      var value: OpaquePointer?
      guard side(iterator, Int32(column), &value) == SQLITE_OK, let value else { return nil }
      return SQLiteValue(value)
    }
  }
}

extension SQLiteValue {
  /// The value of an `sqlite3_value`.
  init(_ value: OpaquePointer) {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      let count = Int(sqlite3_value_bytes(value))
      if let text = sqlite3_value_text(value) {
        self = .text(
          String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
      } else {
        self = .text("")
      }
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      if let bytes = sqlite3_value_blob(value), count > 0 {
        self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
      } else {
        self = .blob([])
      }
    default: self = .null
    }
  }
}
