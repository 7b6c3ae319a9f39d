import ComposableWorkspace
import Foundation
import SQLiteWorkspace
import Testing

/// Bad input gets a clear error and loses nothing.
@Suite("Bad input is refused clearly and loses nothing")
struct BadInputTests {
  @Test func aTableWithoutAPrimaryKeyIsRefusedByName() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    try await harness.remote.commit(to: "main", author: "setup", message: "log") { db in
      try db.execute("CREATE TABLE log (line TEXT)")
    }
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in try db.run("INSERT INTO log VALUES ('hello')") }

    await #expect(throws: SQLiteWorkspaceError.tableWithoutPrimaryKey("log")) {
      try await harness.sqlite.captureChanges(session.source, session.baseline)
    }
    #expect(
      try await session.source.read { db in try db.rows("SELECT line FROM log") } == [["hello"]])
  }

  @Test func aRowWithANullInItsKeyIsRefusedNotLost() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    try await harness.remote.commit(to: "main", author: "setup", message: "tags") { db in
      try db.execute("CREATE TABLE tags (name TEXT PRIMARY KEY, color TEXT)")
    }
    let session = try await harness.sqlite.prepareSource("catalogue")
    // A rowid table's TEXT key takes a NULL; the session extension would skip the row.
    try await session.source.write { db in try db.run("INSERT INTO tags VALUES (NULL, 'red')") }

    await #expect(throws: SQLiteWorkspaceError.nullPrimaryKey("tags")) {
      try await harness.sqlite.captureChanges(session.source, session.baseline)
    }
  }

  @Test func anUnknownRevisionOrBranchIsNamedNotAnsweredEmpty() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)

    await #expect(throws: SQLiteWorkspaceError.revisionNotFound("r99")) {
      try await harness.remote.image(of: "r99")
    }
    await #expect(throws: SQLiteWorkspaceError.branchNotFound("nowhere")) {
      try await harness.remote.head(of: "nowhere")
    }
  }

  @Test func textIsComparedByItsBytesAsSQLiteDoes() {
    #expect(SQLiteValue.text("\u{E9}") != .text("e\u{301}"))
    #expect(Set<SQLiteValue>([.text("\u{E9}"), .text("e\u{301}")]).count == 2)
  }

  @Test func aSchemaChangedUnderTheWorkspaceIsRefused() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.execute("ALTER TABLE events ADD COLUMN city TEXT")
    }

    await #expect {
      try await harness.sqlite.captureChanges(session.source, session.baseline)
    } throws: { error in
      guard case .schemaChanged(let table, let detail) = error as? SQLiteWorkspaceError else {
        return false
      }
      return table == "events" && detail.contains("city")
    }
  }

  @Test func aDamagedWorkingDatabaseIsNamedAndKept() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let directory = harness.sqlite.directory(for: "damaged")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let working = directory.appendingPathComponent("working.sqlite")
    let garbage = Data("this is not a database, it is a text file with 64+ bytes in it......".utf8)
    try garbage.write(to: working)

    await #expect {
      try await harness.sqlite.prepareSource("damaged")
    } throws: { error in
      guard case .notAWorkspaceDatabase(let path, _) = error as? SQLiteWorkspaceError else {
        return false
      }
      return path == working.path
    }
    #expect(try Data(contentsOf: working) == garbage)
  }

  @Test func anotherApplicationsDatabaseIsNotAWorkspace() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    // A database of the right kind of file but not prepared by this integration.
    let foreign = harness.sqlite.directory(for: "foreign")
    try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
    let other = try SQLiteRemoteStore(path: foreign.appendingPathComponent("working.sqlite").path)
    _ = other

    await #expect {
      try await harness.sqlite.prepareSource("foreign")
    } throws: { error in
      guard case .notAWorkspaceDatabase(_, let reason) = error as? SQLiteWorkspaceError else {
        return false
      }
      return reason.contains("composable_workspace_baseline")
    }
  }

  @Test func aStoreRefusesAFileThatIsAnotherApplicationsDatabase() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    let path = session.source.workingDatabaseURL.path
    let before = try Data(contentsOf: session.source.workingDatabaseURL)

    #expect(throws: SQLiteWorkspaceError.self) { try SQLiteRemoteStore(path: path) }
    #expect(try Data(contentsOf: session.source.workingDatabaseURL) == before)
  }

  @Test func aRemoteAnsweringBytesThatAreNotADatabasePreparesNothing() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let lying = SQLiteWorkspaceClient(
      remote: GarbageImages(wrapped: harness.remote), root: harness.sqlite.root,
      capability: { .ada })

    await #expect(throws: SQLiteWorkspaceError.self) {
      try await lying.prepareSource("catalogue")
    }
    #expect(
      !FileManager.default.fileExists(
        atPath: lying.directory(for: "catalogue").appendingPathComponent("working.sqlite").path))
  }
}

/// A remote that answers every image with bytes that are not a database.
private struct GarbageImages: SQLiteWorkspaceRemote {
  let wrapped: SQLiteRemoteStore

  func head(of branch: BranchName) async throws -> WorkspaceBranchReference {
    try await wrapped.head(of: branch)
  }
  func image(of revision: String) async throws -> Data {
    Data(repeating: 0x5A, count: 4096)
  }
  func propose(_ submission: SQLiteProposalSubmission) async throws -> ProposalRecord {
    try await wrapped.propose(submission)
  }
  func proposals() async throws -> [SQLiteProposal] { try await wrapped.proposals() }
  func merge(proposalID id: String) async throws -> WorkspaceBranchReference {
    try await wrapped.merge(proposalID: id)
  }
}
