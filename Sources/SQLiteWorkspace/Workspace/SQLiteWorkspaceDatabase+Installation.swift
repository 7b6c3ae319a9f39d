import ComposableCore
import ComposableWorkspace
import Foundation

/// Preparing, reopening and moving a workspace database: the integration's side of the
/// resource (descendants never call these).
extension SQLiteWorkspaceDatabase {
  /// The one open value per folder in this process.
  private static let opened = LockIsolated<[String: WeakDatabase]>([:])

  private final class WeakDatabase {
    weak var database: SQLiteWorkspaceDatabase?
    init(_ database: SQLiteWorkspaceDatabase) { self.database = database }
  }

  /// The workspace database prepared in `directory`, or `nil` when none was.
  ///
  /// Throws ``SQLiteWorkspaceError/notAWorkspaceDatabase(path:reason:)`` when the folder's
  /// working database is foreign, damaged, or lost its baseline.
  static func existing(in directory: URL) throws -> SQLiteWorkspaceDatabase? {
    let key = directory.standardizedFileURL.path
    return try opened.withValue { table in
      if let open = table[key]?.database { return open }
      guard FileManager.default.fileExists(atPath: workingURL(in: directory).path) else {
        return nil
      }
      let database = SQLiteWorkspaceDatabase(
        directory: directory, connections: try openConnections(in: directory))
      table[key] = WeakDatabase(database)
      return database
    }
  }

  /// Deletes the workspace in `directory` (its working database with its edits, its baseline):
  /// the open value of it, if any, answers ``SQLiteWorkspaceError/removed(_:)`` from then on.
  static func remove(in directory: URL) throws {
    let key = directory.standardizedFileURL.path
    try opened.withValue { table in
      table.removeValue(forKey: key)?.database?.markRemoved()
      guard FileManager.default.fileExists(atPath: directory.path) else { return }
      try FileManager.default.removeItem(at: directory)
    }
  }

  /// Creates the workspace database in `directory` from `image`, the database of `baseline`.
  ///
  /// The working database appears under its name only once complete: a crash leaves either
  /// no workspace or a whole one.
  static func create(
    in directory: URL, image: Data, baseline: WorkspaceBranchReference
  ) throws -> SQLiteWorkspaceDatabase {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try writeBaselineFile(image, to: baselineURL(of: baseline.revision, in: directory))
    let unfinished = directory.appendingPathComponent("working.sqlite.new")
    // What a creation killed midway left: a hot journal would be rolled back onto the new file.
    for suffix in ["", "-journal", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: unfinished.path + suffix)
    }
    try DurableWrite.write(image, to: unfinished)
    do {
      let db = try SQLiteConnection(path: unfinished.path, mode: .readWrite)
      try db.execute("PRAGMA journal_mode = DELETE")
      try db.transaction {
        try db.execute(
          "CREATE TABLE \(SQLiteName.quoted(baselineTable)) "
            + "(branch TEXT NOT NULL, revision TEXT NOT NULL)")
        try db.run(
          "INSERT INTO \(SQLiteName.quoted(baselineTable)) VALUES (?, ?)",
          [.text(baseline.branch.rawValue), .text(baseline.revision)])
      }
    }
    guard rename(unfinished.path, workingURL(in: directory).path) == 0 else {
      throw SQLiteWorkspaceError.io("cannot rename \(unfinished.path) into place")
    }
    DurableWrite.syncFolder(of: unfinished)
    guard let database = try existing(in: directory) else {
      throw SQLiteWorkspaceError.notAWorkspaceDatabase(
        path: workingURL(in: directory).path, reason: "it vanished while it was prepared")
    }
    return database
  }

  /// Installs `image`, the database of `target` (`nil` when `target` is the installed
  /// revision, on the same or another branch), as the baseline, carrying the working
  /// database's edits over it: the rows the new baseline changed are applied to the working
  /// database, and the baseline table names `target`, in one transaction.
  ///
  /// Throws ``SQLiteWorkspaceError/localEditsConflict(_:)`` — and changes nothing — when a row
  /// was changed both locally and between the two baselines.
  func install(_ image: Data?, as target: WorkspaceBranchReference) async throws {
    let directory = self.directory
    try await perform { connections in
      guard connections.baseline != target else { return }
      let file = Self.baselineURL(of: target.revision, in: directory)
      let previous = Self.baselineURL(of: connections.baseline.revision, in: directory)
      if file != previous {
        guard let image else {
          throw SQLiteWorkspaceError.revisionNotFound(target.revision)
        }
        try Self.writeBaselineFile(image, to: file)
      }
      let db = connections.working
      try db.attach(file.path, as: "incoming", readOnly: true)
      do {
        try db.transaction {
          try Self.carryEdits(on: db)
          try db.run(
            "UPDATE \(SQLiteName.quoted(Self.baselineTable)) SET branch = ?, revision = ?",
            [.text(target.branch.rawValue), .text(target.revision)])
        }
      } catch {
        try? db.detach("incoming")
        if file != previous { try? FileManager.default.removeItem(at: file) }
        throw error
      }
      try db.detach("incoming")
      try db.detach("baseline")
      try db.attach(file.path, as: "baseline", readOnly: true)
      connections.reference = try Self.openReference(file)
      connections.baseline = target
      if file != previous { try? FileManager.default.removeItem(at: previous) }
    }
  }

  /// The changes of the working database against the installed `baseline`.
  func capture(against baseline: WorkspaceBranchReference) async throws -> SQLiteChangeSet {
    try await perform { connections in
      guard connections.baseline == baseline else {
        throw SQLiteWorkspaceError.baselineNotInstalled(
          given: baseline, installed: connections.baseline)
      }
      return try SQLiteDiff.changes(
        in: "main", against: "baseline", on: connections.working, excluding: [Self.baselineTable])
    }
  }

  /// Applies to `main` what changed from `baseline` to `incoming`, refusing rows the working
  /// database changed too.
  private static func carryEdits(on db: SQLiteConnection) throws {
    let local = try SQLiteDiff.changes(
      in: "main", against: "baseline", on: db, excluding: [baselineTable])
    let upstream = try SQLiteDiff.changes(in: "incoming", against: "baseline", on: db)
    let localByRow = Dictionary(local.changes.map { ($0.row, $0) }, uniquingKeysWith: { a, _ in a })
    let both = upstream.changes.compactMap { theirs -> SQLiteConflict? in
      guard let ours = localByRow[theirs.row] else { return nil }
      let reason: SQLiteConflict.Reason =
        switch (ours.kind, theirs.kind) {
        case (.insert, .insert): .insertedOnBothSides
        case (.update, .delete), (.delete, .update): .deletedOnOtherSide
        default: .changedOnBothSides
        }
      return SQLiteConflict(row: theirs.row, reason: reason)
    }
    guard both.isEmpty else { throw SQLiteWorkspaceError.localEditsConflict(both) }
    let conflicts = try SQLiteChangesetApplier.apply(upstream, to: db)
    guard conflicts.isEmpty else { throw SQLiteWorkspaceError.localEditsConflict(conflicts) }
  }

  private static func openConnections(in directory: URL) throws -> Connections {
    let path = workingURL(in: directory).path
    do {
      let working = try SQLiteConnection(path: path, mode: .readWrite)
      try working.execute("PRAGMA journal_mode = WAL")
      let rows = try working.rows(
        "SELECT branch, revision FROM \(SQLiteName.quoted(baselineTable))")
      guard rows.count == 1, case .text(let branch) = rows[0][0],
        case .text(let revision) = rows[0][1]
      else {
        throw SQLiteWorkspaceError.notAWorkspaceDatabase(
          path: path, reason: "its \(baselineTable) table must hold exactly one baseline")
      }
      let baseline = WorkspaceBranchReference(branch: BranchName(branch), revision: revision)
      let file = baselineURL(of: revision, in: directory)
      guard FileManager.default.fileExists(atPath: file.path) else {
        throw SQLiteWorkspaceError.notAWorkspaceDatabase(
          path: path, reason: "the file of its baseline \(baseline), \(file.path), is missing")
      }
      try working.attach(file.path, as: "baseline", readOnly: true)
      let connections = Connections(
        working: working, reference: try openReference(file), baseline: baseline)
      removeBaselines(in: directory, except: file)
      return connections
    } catch let error as SQLiteError {
      throw SQLiteWorkspaceError.notAWorkspaceDatabase(path: path, reason: error.description)
    }
  }

  private static func openReference(_ file: URL) throws -> SQLiteConnection {
    let reference = try SQLiteConnection(path: file.path, mode: .readOnly)
    try reference.execute("PRAGMA query_only = ON")
    return reference
  }

  /// Writes a baseline's database file, refusing an image that is not a database.
  private static func writeBaselineFile(_ image: Data, to file: URL) throws {
    var image = image
    // A WAL-mode image (bytes 18 and 19) would leave -wal/-shm files beside a file that is
    // never written: it is kept as a rollback-journal database.
    if image.count > 19, image[image.startIndex + 18] == 2, image[image.startIndex + 19] == 2 {
      image[image.startIndex + 18] = 1
      image[image.startIndex + 19] = 1
    }
    try DurableWrite.write(image, to: file)
    // Opened where it lies (no second copy of the image in memory): a foreign or damaged
    // image fails on its schema, and is not kept.
    do {
      _ = try SQLiteConnection(path: file.path, mode: .readOnly)
    } catch let error as SQLiteError {
      try? FileManager.default.removeItem(at: file)
      throw SQLiteWorkspaceError.notAWorkspaceDatabase(
        path: file.path, reason: "the remote's image is not a database: \(error.description)")
    }
  }

  /// Removes baseline files a crash left behind (from an install that did not finish).
  private static func removeBaselines(in directory: URL, except kept: URL) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in names {
      let staleBaseline =
        name.hasPrefix("baseline-") && !name.hasPrefix(kept.lastPathComponent)
      let unfinishedWrite = name.hasPrefix(".") && name.hasSuffix(".partial")
      if staleBaseline || unfinishedWrite {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
    }
  }
}
