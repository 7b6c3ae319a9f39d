import ComposableCore
import ComposableWorkspace
import Foundation
import WorkingCopySupport

/// The coherent resource of a database-backed workspace — its `Source`: the writable working
/// database and a read-only reader of the exact baseline revision it was prepared against,
/// opened together and handed to every descendant.
///
/// Descendants work through this one value: ``read(_:)`` and ``write(_:)`` run their SQL on
/// the working database, ``readReference(_:)`` on the baseline. They cannot open or attach
/// another database — the API offers no way to, and SQL that tries (`ATTACH`, `DETACH`) is
/// refused — so every query reads exactly the workspace's resource:
///
/// ```swift
/// let session = try await client.prepareSource("catalogue")
/// try await session.source.write { db in
///   try db.run("UPDATE events SET title = ? WHERE id = ?", ["Porto", 7])
/// }
/// let before = try await session.source.readReference { db in
///   try db.value("SELECT title FROM events WHERE id = 7")
/// }
/// ```
///
/// On disk a workspace is a folder: `working.sqlite` (the app's database, in WAL mode; any
/// SQLite tool can read it) holding one extra table, `composable_workspace_baseline`, which
/// names the installed baseline; and `baseline-<revision>.sqlite`, that revision's database,
/// never written. A refresh changes the working database and that table in one transaction,
/// so a crash at any moment leaves the old baseline with the old rows or the new with the new.
///
/// One value per folder in a process: preparing a workspace again answers the same value.
/// Its calls run one at a time, in order, on a queue of its own (never on Swift's concurrency
/// threads).
public final class SQLiteWorkspaceDatabase: Sendable, Hashable, CustomStringConvertible {
  /// The workspace's folder.
  public let directory: URL
  private let connections: QueueConfined<Connections>
  /// Set when the workspace was removed: every later call is refused.
  private let isRemoved = LockIsolated(false)

  struct Connections {
    /// The working database (`main`), with the baseline attached read-only as `baseline`.
    var working: SQLiteConnection
    /// A read-only connection to the baseline's file.
    var reference: SQLiteConnection
    var baseline: WorkspaceBranchReference
  }

  /// The table in the working database that names the installed baseline.
  static let baselineTable = "composable_workspace_baseline"
  static let workingFileName = "working.sqlite"

  /// The working database's file: open it with any SQLite tool to see the working copy.
  public var workingDatabaseURL: URL { Self.workingURL(in: directory) }

  init(directory: URL, connections: Connections) {
    self.directory = directory
    self.connections = QueueConfined(
      connections, label: "SQLiteWorkspaceDatabase \(directory.lastPathComponent)")
  }

  /// The installed baseline: the branch and exact revision the working database is compared
  /// against.
  public var baseline: WorkspaceBranchReference {
    get async throws { try await perform { $0.baseline } }
  }

  /// Runs `body` on the working database, read-only, in one read transaction (every query in
  /// it sees the same state).
  public func read<T: Sendable>(
    _ body: @escaping @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await perform { connections in
      let db = connections.working
      try db.execute("PRAGMA query_only = ON")
      // Writable again whatever the body did, even if it ended the transaction itself.
      defer {
        if db.isInTransaction { try? db.execute("ROLLBACK") }
        try? db.execute("PRAGMA query_only = OFF")
      }
      try db.execute("BEGIN")
      return try body(db)
    }
  }

  /// Runs `body` on the working database in one write transaction: committed when it returns,
  /// rolled back when it throws.
  @discardableResult
  public func write<T: Sendable>(
    _ body: @escaping @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await perform { connections in
      try connections.working.transaction { try body(connections.working) }
    }
  }

  /// Runs `body` on the read-only reader of the installed baseline.
  public func readReference<T: Sendable>(
    _ body: @escaping @Sendable (SQLiteConnection) throws -> T
  ) async throws -> T {
    try await perform { connections in try body(connections.reference) }
  }

  /// Runs `body` with the connections, on the queue.
  func perform<T: Sendable>(
    _ body: @escaping @Sendable (inout Connections) throws -> T
  ) async throws -> T {
    guard !isRemoved.current else { throw SQLiteWorkspaceError.removed(directory.path) }
    return try await connections.perform(body)
  }

  func markRemoved() { isRemoved.setValue(true) }

  public static func == (lhs: SQLiteWorkspaceDatabase, rhs: SQLiteWorkspaceDatabase) -> Bool {
    lhs === rhs
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  public var description: String { "SQLite workspace at \(directory.path)" }

  static func workingURL(in directory: URL) -> URL {
    directory.appendingPathComponent(workingFileName)
  }

  static func baselineURL(of revision: String, in directory: URL) -> URL {
    directory.appendingPathComponent("baseline-\(PathComponent.escaping(revision)).sqlite")
  }
}
