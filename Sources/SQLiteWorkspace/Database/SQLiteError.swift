import CSQLite

/// An error SQLite reported: its result code and message, and the statement it was running.
///
/// The statement is the SQL text as written by the caller; values are always bound, never
/// spliced into it, so no value (a secret, a user's text) appears in a message.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY`, `SQLITE_FULL`, …).
  public var code: Int32
  /// SQLite's message (`sqlite3_errmsg`), or ours when SQLite has none.
  public var message: String
  /// The statement that failed, when there was one.
  public var statement: String?

  public init(code: Int32, message: String, statement: String? = nil) {
    self.code = code
    self.message = message
    self.statement = statement
  }

  /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_FULL`, `SQLITE_NOTADB`, …).
  public var primaryCode: Int32 { code & 0xFF }

  /// Whether the disk (or the database's size limit) was full.
  public var isDiskFull: Bool { primaryCode == SQLITE_FULL }

  /// Whether the file is not a database, or is damaged.
  public var isCorruptOrForeign: Bool {
    primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT
  }

  public var description: String {
    let name = String(cString: sqlite3_errstr(code))
    let base = "SQLite error \(code) (\(name)): \(message)"
    guard let statement else { return base }
    return base + " — in: \(statement)"
  }
}
