import ComposableWorkspace
import Foundation
import SQLiteWorkspace
import Testing

/// The Source is one coherent resource: the writable database and a read-only reader of the
/// exact baseline, and no way to reach another database.
@Suite("A workspace database is one coherent resource")
struct SourceTests {
  @Test func queriesReadTheWritableDatabaseAndTheReferenceReadsTheBaseline() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")

    try await session.source.write { db in
      try db.run("UPDATE events SET title = 'Lisbon' WHERE id = 1")
    }

    #expect(
      try await session.source.read { db in try db.value("SELECT title FROM events") }
        == .text("Lisbon"))
    #expect(
      try await session.source.readReference { db in try db.value("SELECT title FROM events") }
        == .text("Lisboa"))
  }

  @Test func sqlCannotAttachOrDetachAnotherDatabase() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    let elsewhere = folder.url.appendingPathComponent("elsewhere.sqlite").path

    for attempt in ["ATTACH DATABASE '\(elsewhere)' AS other", "DETACH DATABASE baseline"] {
      await #expect(throws: SQLiteError.self, "\(attempt)") {
        try await session.source.write { db in try db.execute(attempt) }
      }
      await #expect(throws: SQLiteError.self, "\(attempt)") {
        try await session.source.readReference { db in try db.execute(attempt) }
      }
    }
    #expect(!FileManager.default.fileExists(atPath: elsewhere))
  }

  @Test func theReferenceReaderAndReadsCannotWrite() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")

    await #expect(throws: SQLiteError.self) {
      try await session.source.readReference { db in try db.run("DELETE FROM events") }
    }
    await #expect(throws: SQLiteError.self) {
      try await session.source.read { db in try db.run("DELETE FROM events") }
    }
    #expect(try await rows(of: "events", in: session.source).count == 1)
    // A failed read leaves the connection usable for writes.
    try await session.source.write { db in try db.run("DELETE FROM events") }
    #expect(try await rows(of: "events", in: session.source).isEmpty)
  }

  @Test func aReadThatEndsItsTransactionItselfLeavesTheDatabaseWritable() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")

    _ = try await session.source.read { db in try db.execute("COMMIT") }
    await #expect(throws: SQLiteError.self) {
      try await session.source.read { db in
        try db.execute("ROLLBACK")
        try db.execute("SELECT nothing FROM nowhere")
      }
    }

    try await session.source.write { db in try db.run("UPDATE events SET title = 'still'") }
    #expect(
      try await session.source.read { db in try db.value("SELECT title FROM events") } == "still")
  }

  @Test func aFailedWriteLeavesTheWorkingDatabaseAsItWas() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")

    await #expect(throws: SQLiteError.self) {
      try await session.source.write { db in
        try db.run("UPDATE events SET title = 'gone'")
        try db.run("INSERT INTO events (id, title) VALUES (1, 'duplicate key')")
      }
    }
    #expect(
      try await session.source.read { db in try db.value("SELECT title FROM events") }
        == .text("Lisboa"))
  }

  @Test func preparingAgainAnswersTheSameValueWithItsEditsAndBaseline() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let first = try await harness.sqlite.prepareSource("catalogue")
    try await first.source.write { db in try db.run("DELETE FROM events") }
    try await harness.commitElsewhere()

    let second = try await harness.sqlite.prepareSource("catalogue")

    #expect(second.source === first.source)
    #expect(second.baseline == first.baseline)
    #expect(try await rows(of: "events", in: second.source).isEmpty)
  }

  @Test func anyToolCanReadTheWorkingDatabaseFile() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("INSERT INTO events (id, title) VALUES (2, 'Porto')")
    }

    // A second, unrelated reader of the file (as `sqlite3 working.sqlite` would be) sees the
    // committed working copy and the baseline table.
    let path = session.source.workingDatabaseURL.path
    let titles = try ExternalReader.rows("SELECT title FROM events ORDER BY id", in: path)
    #expect(titles == [[.text("Lisboa")], [.text("Porto")]])
    let baseline = try ExternalReader.rows(
      "SELECT branch, revision FROM composable_workspace_baseline", in: path)
    #expect(baseline == [[.text("main"), .text(session.baseline.revision)]])
  }
}
