import CSQLite
import Foundation

/// One connection to a SQLite database: run statements, read rows, group writes in a
/// transaction.
///
/// A workspace hands its descendants a connection inside ``SQLiteWorkspaceDatabase/write(_:)``
/// and its siblings; they cannot open one, and SQL that would attach or detach another database
/// is refused (the connection's authorizer), so every query reads the workspace's own resource.
///
/// ```swift
/// let titles = try await database.read { db in
///   try db.rows("SELECT title FROM events ORDER BY id").map { $0[0] }
/// }
/// ```
///
/// A connection is used by one thread at a time: the workspace database runs every body on its
/// own serial queue.
public final class SQLiteConnection {
  let handle: OpaquePointer

  /// How a connection opens its file.
  enum OpenMode {
    /// Read and write; the file must exist.
    case readWrite
    /// Read and write, creating the file.
    case create
    /// Read only.
    case readOnly
  }

  init(path: String, mode: OpenMode) throws {
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    switch mode {
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    }
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(connection)
      throw SQLiteError(code: code, message: "cannot open \(path): \(message)")
    }
    self.handle = connection
    sqlite3_extended_result_codes(connection, 1)
    sqlite3_busy_timeout(connection, 5_000)
    installAttachGuard()
    // Opening is lazy: read the schema now, so a foreign or damaged file fails here, not at
    // some later query. (Thrown from here, the connection is closed by `deinit`.)
    try execute("SELECT count(*) FROM sqlite_schema")
  }

  /// Whether a transaction is open on this connection.
  var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one or more statements that take no values (`CREATE TABLE …; CREATE INDEX …`).
  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      throw SQLiteError(
        code: sqlite3_extended_errcode(handle), message: text, statement: sql)
    }
  }

  /// Runs one statement with `values` bound to its parameters `?1…?n`; answers the number of
  /// rows it changed.
  @discardableResult
  public func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
    let statement = try SQLiteStatement(sql, on: self)
    try statement.bind(values)
    while try statement.step() {}
    return Int(sqlite3_changes64(handle))
  }

  /// Runs one query with `values` bound and answers every row, each as its columns' values.
  public func rows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
    let statement = try SQLiteStatement(sql, on: self)
    try statement.bind(values)
    var rows: [[SQLiteValue]] = []
    while try statement.step() { rows.append(statement.row()) }
    return rows
  }

  /// The first column of the first row of a query, or `nil` when it answers no row.
  public func value(_ sql: String, _ values: [SQLiteValue] = []) throws -> SQLiteValue? {
    let statement = try SQLiteStatement(sql, on: self)
    try statement.bind(values)
    // `.none`, not `nil`: SQLiteValue is ExpressibleByNilLiteral, and `nil` here would be
    // `.null`, a row.
    guard try statement.step() else { return .none }
    return statement.column(0)
  }

  /// Runs `body` in one transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled back
  /// when it throws — the database is then as it was.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// The error SQLite holds for `code`, with its message.
  func error(_ code: Int32, statement: String? = nil) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    return SQLiteError(
      code: extended != 0 ? extended : code,
      message: String(cString: sqlite3_errmsg(handle)), statement: statement)
  }

  /// Attaches the database at `path` as `schema` (read-only when asked): the integration's own
  /// step, the one place SQL on this connection may attach.
  func attach(_ path: String, as schema: String, readOnly: Bool) throws {
    let uri = Self.fileURI(path, readOnly: readOnly)
    _ = try withoutAttachGuard {
      try run("ATTACH DATABASE ? AS \(SQLiteName.quoted(schema))", [.text(uri)])
    }
  }

  /// Detaches `schema`, when it is attached.
  func detach(_ schema: String) throws {
    let attached = try rows("PRAGMA database_list").contains {
      $0.count > 1 && $0[1] == .text(schema)
    }
    guard attached else { return }
    try withoutAttachGuard { try execute("DETACH DATABASE \(SQLiteName.quoted(schema))") }
  }

  /// Runs `body` with attaching allowed (the integration's own steps: attaching a baseline,
  /// loading an image), then guards again.
  func withoutAttachGuard<T>(_ body: () throws -> T) rethrows -> T {
    sqlite3_set_authorizer(handle, nil, nil)
    defer { installAttachGuard() }
    return try body()
  }

  /// A `file:` URI for `path` (percent-escaped), with `mode=ro` when read-only.
  static func fileURI(_ path: String, readOnly: Bool) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    return "file:" + escaped + (readOnly ? "?mode=ro" : "")
  }

  /// Refuses `ATTACH` and `DETACH` in any statement this connection prepares.
  private func installAttachGuard() {
    sqlite3_set_authorizer(
      handle,
      { _, action, _, _, _, _ in
        action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK
      }, nil)
  }
}
