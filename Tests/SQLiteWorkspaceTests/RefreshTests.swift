import ComposableWorkspace
import Foundation
import SQLiteWorkspace
import Testing

/// Refresh and selection install the branch's head and carry local edits over it, or refuse
/// and change nothing.
@Suite("Refresh carries local edits over the new head")
struct RefreshTests {
  @Test func editsOnOtherRowsAreCarriedOverTheNewHead() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("UPDATE events SET title = 'Lisbon' WHERE id = 1")
      try db.run("INSERT INTO events (id, title) VALUES (2, 'Porto')")
    }
    let head = try await harness.commitElsewhere(id: 50)

    let refreshed = try await harness.sqlite.refreshBaseline(session.source, session.baseline)

    #expect(refreshed == head)
    #expect(try await session.source.baseline == head)
    #expect(
      try await session.source.read { db in try db.rows("SELECT id, title FROM events ORDER BY id")
      }
        == [[1, "Lisbon"], [2, "Porto"], [50, "elsewhere"]])
    #expect(
      try await session.source.readReference { db in
        try db.rows("SELECT id, title FROM events ORDER BY id")
      } == [[1, "Lisboa"], [50, "elsewhere"]])
    // The local edits are still the changes against the new baseline.
    let changes = try await harness.sqlite.captureChanges(session.source, refreshed)
    #expect(
      changes.changes.map(\.description).sorted() == ["insert events (2)", "update events (1)"])
  }

  @Test func aRowChangedOnBothSidesRefusesAndChangesNothing() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("UPDATE events SET title = 'Lisbon' WHERE id = 1")
      try db.run("INSERT INTO events (id, title) VALUES (2, 'Porto')")
    }
    try await harness.remote.commit(to: "main", author: "grace", message: "rename") { db in
      try db.run("UPDATE events SET venue = 'Altice' WHERE id = 1")
      try db.run("INSERT INTO events (id, title) VALUES (3, 'Faro')")
    }
    let before = try await rows(of: "events", in: session.source)

    await #expect(
      throws: SQLiteWorkspaceError.localEditsConflict([
        SQLiteConflict(
          row: SQLiteRowID(table: "events", primaryKey: [1]), reason: .changedOnBothSides)
      ])
    ) {
      try await harness.sqlite.refreshBaseline(session.source, session.baseline)
    }

    #expect(try await session.source.baseline == session.baseline)
    #expect(try await rows(of: "events", in: session.source) == before)
    #expect(try await rows(of: "events", in: session.source, reference: true).count == 1)
    let files = try FileManager.default.contentsOfDirectory(atPath: session.source.directory.path)
    #expect(files.filter { $0.hasPrefix("baseline-") } == ["baseline-r1.sqlite"])
  }

  @Test func aRowDeletedOnTheBranchAndEditedLocallyRefuses() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in try db.run("UPDATE events SET title = 'x' WHERE id = 1")
    }
    try await harness.remote.commit(to: "main", author: "grace", message: "drop") { db in
      try db.run("DELETE FROM events WHERE id = 1")
    }

    await #expect(
      throws: SQLiteWorkspaceError.localEditsConflict([
        SQLiteConflict(
          row: SQLiteRowID(table: "events", primaryKey: [1]), reason: .deletedOnOtherSide)
      ])
    ) {
      try await harness.sqlite.refreshBaseline(session.source, session.baseline)
    }
  }

  @Test func aFullDiskDuringRefreshLeavesTheWorkspaceAsItWas() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("INSERT INTO events (id, title) VALUES (2, 'Porto')")
    }
    try await harness.remote.commit(to: "main", author: "grace", message: "big") { db in
      try db.run(
        "INSERT INTO events (id, title, poster) VALUES (3, 'Faro', zeroblob(200000))")
    }
    let before = try await rows(of: "events", in: session.source)
    // The working database may not grow: the next write that needs a page fails as on a full
    // disk (SQLITE_FULL).
    try await session.source.write { db in
      let pages = try db.value("PRAGMA page_count")
      try db.execute("PRAGMA max_page_count = \(pages?.description ?? "1")")
    }

    await #expect {
      try await harness.sqlite.refreshBaseline(session.source, session.baseline)
    } throws: { error in
      (error as? SQLiteError)?.isDiskFull == true
    }

    #expect(try await session.source.baseline == session.baseline)
    #expect(try await rows(of: "events", in: session.source) == before)
  }

  @Test func selectingABranchInstallsItExactlyWithTheEdits() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let published = try await harness.commitElsewhere(on: "published", id: 70)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("INSERT INTO events (id, title) VALUES (2, 'Porto')")
    }

    let selected = try await harness.sqlite.selectBranch(session.source, "published")

    #expect(selected == published)
    #expect(
      try await session.source.read { db in try db.rows("SELECT id FROM events ORDER BY id") }
        == [[1], [2], [70]])
  }

  @Test func aBaselineLeftByAnInterruptedRefreshIsRemovedOnReopen() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    _ = try await harness.sqlite.prepareSource("catalogue")
    // The folder as a process killed after writing the next baseline's file, before its
    // transaction, leaves it; a new process (here: a copy under another id) opens it.
    let copy = harness.sqlite.directory(for: "restarted")
    try FileManager.default.copyItem(at: harness.sqlite.directory(for: "catalogue"), to: copy)
    let stray = copy.appendingPathComponent("baseline-r9.sqlite")
    try Data().write(to: stray)

    let reopened = try await harness.sqlite.prepareSource("restarted")

    #expect(try await reopened.source.baseline.revision == "r1")
    #expect(!FileManager.default.fileExists(atPath: stray.path))
    #expect(
      FileManager.default.fileExists(atPath: copy.appendingPathComponent("baseline-r1.sqlite").path)
    )
  }
}
