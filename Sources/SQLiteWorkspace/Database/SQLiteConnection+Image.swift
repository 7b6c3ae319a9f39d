import CSQLite
import Foundation

/// Database images: the bytes of a database file, moved between memory and connections.
extension SQLiteConnection {
  /// The database `schema` of this connection as one file image (`sqlite3_serialize`).
  func image(of schema: String = "main") throws -> Data {
    var size: sqlite3_int64 = 0
    guard let bytes = sqlite3_serialize(handle, schema, &size, 0) else {
      // An empty database serializes to nothing: its image is zero bytes long.
      if size == 0, sqlite3_errcode(handle) == SQLITE_OK { return Data() }
      throw error(SQLITE_NOMEM, statement: "serialize \(schema)")
    }
    defer { sqlite3_free(bytes) }
    return Data(bytes: bytes, count: Int(size))
  }

  /// Attaches a private in-memory copy of `image` as `schema` (read and written in memory only).
  func attach(image: Data, as schema: String) throws {
    _ = try withoutAttachGuard {
      try run("ATTACH DATABASE ':memory:' AS \(SQLiteName.quoted(schema))")
    }
    try load(image, into: schema)
  }

  /// A connection to a private in-memory database holding `image` (a database file's bytes).
  ///
  /// Throws `SQLITE_NOTADB` when `image` is not a database.
  static func inMemory(image: Data) throws -> SQLiteConnection {
    let connection = try SQLiteConnection(path: ":memory:", mode: .create)
    try connection.load(image, into: "main")
    return connection
  }

  /// Replaces the in-memory database `schema` with `image`.
  private func load(_ image: Data, into schema: String) throws {
    guard !image.isEmpty else { return }
    guard let buffer = sqlite3_malloc64(UInt64(image.count)) else {
      throw SQLiteError(code: SQLITE_NOMEM, message: "no memory for a \(image.count)-byte image")
    }
    let bytes = buffer.assumingMemoryBound(to: UInt8.self)
    image.copyBytes(to: bytes, count: image.count)
    // A database file in WAL mode says so in bytes 18 and 19; an image has no WAL beside it,
    // so it is read as a rollback-journal database.
    if image.count > 19, bytes[18] == 2, bytes[19] == 2 {
      bytes[18] = 1
      bytes[19] = 1
    }
    let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
    let size = sqlite3_int64(image.count)
    let code = withoutAttachGuard {
      sqlite3_deserialize(handle, schema, bytes, size, size, flags)
    }
    guard code == SQLITE_OK else { throw error(code, statement: "deserialize") }
    try execute("SELECT count(*) FROM \(SQLiteName.quoted(schema)).sqlite_schema")
  }
}
