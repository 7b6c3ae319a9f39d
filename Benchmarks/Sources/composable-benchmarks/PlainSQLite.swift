import CSQLiteFloor
import Foundation

// The `sqlite` group's floors: the plain C calls the SQLite workspace wraps, on connections of
// their own, with no checks beyond what a correct result needs.

/// One plain SQLite connection (`sqlite3_open_v2`), closed when released.
final class PlainSQLiteConnection {
  let handle: OpaquePointer

  /// Opens `path` (a `file:` URI is allowed) read-write, creating it when `create`.
  init(path: String, create: Bool = false) throws {
    var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
    if create { flags |= SQLITE_OPEN_CREATE }
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      sqlite3_close_v2(connection)
      throw BenchmarkFailure("plain sqlite: cannot open \(path) (code \(code))")
    }
    handle = connection
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs statements that take no values.
  func execute(_ sql: String) throws {
    try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
  }

  /// Prepares one statement, kept by the caller.
  func prepare(_ sql: String) throws -> PlainSQLiteStatement {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
    guard let statement else { throw BenchmarkFailure("plain sqlite: empty statement \(sql)") }
    return PlainSQLiteStatement(handle: statement)
  }

  /// Throws SQLite's message unless `code` is `SQLITE_OK`.
  func check(_ code: Int32, _ what: @autoclosure () -> String) throws {
    guard code != SQLITE_OK else { return }
    throw BenchmarkFailure(
      "plain sqlite: \(what()) failed: \(code) \(String(cString: sqlite3_errmsg(handle)))")
  }
}

/// One prepared statement, finalized when released.
final class PlainSQLiteStatement {
  let handle: OpaquePointer

  init(handle: OpaquePointer) { self.handle = handle }

  deinit { sqlite3_finalize(handle) }
}

/// `sqlite_capture_plain_*`: the session-extension calls a capture wraps, on one plain
/// connection to the workspace's working database with its baseline's file attached
/// read-only as `baseline` (opened once, like the workspace's own connection).
final class PlainSessionDiff {
  let connection: PlainSQLiteConnection
  let table: String

  init(working: URL, baseline: URL, table: String) throws {
    connection = try PlainSQLiteConnection(path: working.path)
    self.table = table
    let attach = try connection.prepare("ATTACH DATABASE ? AS baseline")
    try "file:\(baseline.path)?mode=ro".withCString { uri in
      try connection.check(sqlite3_bind_text(attach.handle, 1, uri, -1, nil), "bind")
      let code = sqlite3_step(attach.handle)
      try connection.check(code == SQLITE_DONE ? SQLITE_OK : code, "ATTACH baseline")
    }
  }

  /// `sqlite3session_create` on `main`, `sqlite3session_attach` of the table,
  /// `sqlite3session_diff` against `baseline`, `sqlite3session_changeset`; calls `body` with
  /// the changeset's bytes, then `sqlite3_free` and `sqlite3session_delete`.
  func changeset<T>(_ body: (UnsafeMutableRawPointer?, Int32) throws -> T) throws -> T {
    var session: OpaquePointer?
    try connection.check(
      sqlite3session_create(connection.handle, "main", &session), "sqlite3session_create")
    defer { sqlite3session_delete(session) }
    try connection.check(sqlite3session_attach(session, table), "sqlite3session_attach")
    var message: UnsafeMutablePointer<CChar>?
    let diffed = sqlite3session_diff(session, "baseline", table, &message)
    defer { sqlite3_free(message) }
    try connection.check(diffed, "sqlite3session_diff")
    var size: Int32 = 0
    var bytes: UnsafeMutableRawPointer?
    try connection.check(
      sqlite3session_changeset(session, &size, &bytes), "sqlite3session_changeset")
    defer { sqlite3_free(bytes) }
    return try body(bytes, size)
  }

  /// The changeset's bytes, copied (for the group's checks, outside the timing).
  func changesetData() throws -> Data {
    try changeset { bytes, size in bytes.map { Data(bytes: $0, count: Int(size)) } ?? Data() }
  }
}

/// The store side of `sqlite_publish_plain_ms`: a plain SQLite file in WAL mode with
/// `synchronous = FULL`, holding
///
/// ```sql
/// revisions (number INTEGER PRIMARY KEY, image BLOB NOT NULL)
/// proposals (number INTEGER PRIMARY KEY, target INTEGER NOT NULL, changeset BLOB NOT NULL,
///            content INTEGER NOT NULL)
/// ```
///
/// and revision 1, the target's image. Its statements are prepared once.
final class PlainProposalStore {
  let connection: PlainSQLiteConnection
  private let selectImage: PlainSQLiteStatement
  private let insertRevision: PlainSQLiteStatement
  private let insertProposal: PlainSQLiteStatement

  /// Creates the file at `path` with `image` as revision 1.
  init(path: String, image: Data) throws {
    connection = try PlainSQLiteConnection(path: path, create: true)
    try connection.execute(
      """
      PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
      CREATE TABLE revisions (number INTEGER PRIMARY KEY, image BLOB NOT NULL);
      CREATE TABLE proposals (
        number INTEGER PRIMARY KEY, target INTEGER NOT NULL, changeset BLOB NOT NULL,
        content INTEGER NOT NULL);
      """)
    selectImage = try connection.prepare("SELECT image FROM revisions WHERE number = ?")
    insertRevision = try connection.prepare("INSERT INTO revisions (image) VALUES (?)")
    insertProposal = try connection.prepare(
      "INSERT INTO proposals (target, changeset, content) VALUES (?, ?, ?)")
    try image.withUnsafeBytes { buffer in
      _ = try insert(insertRevision, [.blob(buffer.baseAddress, Int64(buffer.count))])
    }
  }

  /// In one transaction (`BEGIN IMMEDIATE` … `COMMIT`): reads revision `target`'s image,
  /// `sqlite3_deserialize`s it into a new in-memory connection, `sqlite3changeset_apply`s the
  /// changeset (aborting on any conflict), `sqlite3_serialize`s the result and inserts it as a
  /// new revision, then inserts the proposal with the changeset's bytes. Answers the new
  /// revision's number.
  func propose(changeset: UnsafeMutableRawPointer?, size: Int32, target: Int64) throws -> Int64 {
    try connection.execute("BEGIN IMMEDIATE")
    do {
      let content = try propose(changeset, size, target)
      try connection.execute("COMMIT")
      return content
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  private func propose(
    _ changeset: UnsafeMutableRawPointer?, _ size: Int32, _ target: Int64
  ) throws -> Int64 {
    // The target's image, into a buffer SQLite owns (freed when the in-memory one closes).
    let select = selectImage.handle
    defer { sqlite3_reset(select) }
    try connection.check(sqlite3_bind_int64(select, 1, target), "bind target")
    guard sqlite3_step(select) == SQLITE_ROW else {
      throw BenchmarkFailure("plain sqlite: no revision \(target)")
    }
    let count = Int64(sqlite3_column_bytes(select, 0))
    guard let image = sqlite3_column_blob(select, 0),
      let buffer = sqlite3_malloc64(UInt64(count))
    else { throw BenchmarkFailure("plain sqlite: revision \(target) has no image") }
    buffer.copyMemory(from: image, byteCount: Int(count))
    var memory: OpaquePointer?
    guard sqlite3_open_v2(":memory:", &memory, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
      let memory
    else {
      sqlite3_free(buffer)
      sqlite3_close_v2(memory)
      throw BenchmarkFailure("plain sqlite: cannot open an in-memory database")
    }
    defer { sqlite3_close_v2(memory) }
    let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
    let loaded = sqlite3_deserialize(
      memory, "main", buffer.assumingMemoryBound(to: UInt8.self), count, count, flags)
    guard loaded == SQLITE_OK else {
      throw BenchmarkFailure("plain sqlite: sqlite3_deserialize failed: \(loaded)")
    }
    let applied = sqlite3changeset_apply(
      memory, size, changeset, nil, { _, _, _ in SQLITE_CHANGESET_ABORT }, nil)
    guard applied == SQLITE_OK else {
      throw BenchmarkFailure("plain sqlite: sqlite3changeset_apply failed: \(applied)")
    }
    var length: sqlite3_int64 = 0
    guard let serialized = sqlite3_serialize(memory, "main", &length, 0) else {
      throw BenchmarkFailure("plain sqlite: sqlite3_serialize failed")
    }
    defer { sqlite3_free(serialized) }
    let content = try insert(insertRevision, [.blob(serialized, length)])
    _ = try insert(
      insertProposal, [.integer(target), .blob(changeset, Int64(size)), .integer(content)])
    return content
  }

  /// The image of revision `number`, copied (for the group's checks).
  func image(of number: Int64) throws -> Data {
    let select = selectImage.handle
    defer { sqlite3_reset(select) }
    try connection.check(sqlite3_bind_int64(select, 1, number), "bind revision")
    guard sqlite3_step(select) == SQLITE_ROW, let bytes = sqlite3_column_blob(select, 0) else {
      throw BenchmarkFailure("plain sqlite: no revision \(number)")
    }
    return Data(bytes: bytes, count: Int(sqlite3_column_bytes(select, 0)))
  }

  private enum Value {
    case integer(Int64)
    /// Bytes bound without a copy (`SQLITE_STATIC`): they outlive the statement's step.
    case blob(UnsafeRawPointer?, Int64)
  }

  /// Binds `values`, steps once, resets; answers `sqlite3_last_insert_rowid`.
  private func insert(_ statement: PlainSQLiteStatement, _ values: [Value]) throws -> Int64 {
    let handle = statement.handle
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .integer(let number):
        try connection.check(sqlite3_bind_int64(handle, index, number), "bind")
      case .blob(let bytes, let count):
        try connection.check(
          sqlite3_bind_blob64(
            handle, index, bytes ?? UnsafeRawPointer(bitPattern: 1), UInt64(count), nil),
          "bind")
      }
    }
    let code = sqlite3_step(handle)
    try connection.check(code == SQLITE_DONE ? SQLITE_OK : code, "INSERT")
    return sqlite3_last_insert_rowid(connection.handle)
  }
}
