import ComposableWorkspace
import Foundation
import SQLiteWorkspace
import Testing

/// Every value kind SQLite stores travels publish → merge → refresh exactly: the second
/// workspace reads the same values with the same storage classes as the author wrote.
@Suite("Values round-trip through a proposal byte for byte")
struct FidelityTests {
  static let ledger = """
    CREATE TABLE ledger (
      region TEXT NOT NULL,
      code INTEGER NOT NULL,
      label TEXT,
      amount REAL,
      payload BLOB,
      PRIMARY KEY (region, code)
    ) WITHOUT ROWID
    """

  @Test func insertsUpdatesAndDeletesOfEveryValueKindArriveExactly() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    try await harness.remote.commit(to: "main", author: "setup", message: "ledger") { db in
      try db.execute(Self.ledger)
      try db.run("INSERT INTO ledger VALUES ('north', 1, 'keep', 1.5, X'01')")
      try db.run("INSERT INTO ledger VALUES ('north', 2, 'change me', 2.5, NULL)")
      try db.run("INSERT INTO ledger VALUES ('south', 1, 'delete me', 3.5, X'FF')")
    }
    let author = try await harness.sqlite.prepareSource("author")
    let reviewer = try await harness.sqlite.prepareSource("reviewer")

    // Given the author's edits: every storage class, text in several scripts, NULLs, empty and
    // binary blobs, a composite key, inserts, updates and deletes in two tables.
    let binary: [UInt8] = [0x00, 0xFF, 0x0D, 0x0A, 0x00, 0x7F]
    try await author.source.write { db in
      try db.run(
        "INSERT INTO ledger VALUES (?, ?, ?, ?, ?)",
        ["Ελλάδα", 7, "日本語 · עברית · 🎉", 0.1, .blob(binary)])
      try db.run("INSERT INTO ledger VALUES ('west', -9223372036854775808, '', -0.0, X'')")
      try db.run("INSERT INTO ledger VALUES ('east', 9223372036854775807, NULL, NULL, NULL)")
      try db.run(
        "UPDATE ledger SET label = NULL, amount = 1e308 WHERE region = 'north' AND code = 2")
      try db.run("DELETE FROM ledger WHERE region = 'south'")
      try db.run("UPDATE events SET venue = NULL, poster = ? WHERE id = 1", [.blob(binary)])
      try db.run("INSERT INTO events (id, title, venue) VALUES (2, 'line\r\nbreak', 'Porto')")
    }
    let expectedLedger = try await rows(of: "ledger", in: author.source)
    let expectedEvents = try await rows(of: "events", in: author.source)

    // When they are captured, published and merged, and the reviewer refreshes.
    let changes = try await harness.sqlite.captureChanges(author.source, author.baseline)
    #expect(changes.changes.count == 7, "\(changes.changes)")
    #expect(Set(changes.changes.map(\.kind)) == [.insert, .update, .delete])
    let record = try await harness.sqlite.publishProposal(
      author.source, author.baseline, changes,
      ProposalRequest(title: "Ledger", summary: "", idempotencyKey: UUID()))
    let merged = try await harness.sqlite.merge(proposalID: record.id)
    let refreshed = try await harness.sqlite.refreshBaseline(reviewer.source, reviewer.baseline)

    // Then the reviewer's working database and reference reader hold exactly the author's rows.
    #expect(refreshed == merged)
    #expect(try await rows(of: "ledger", in: reviewer.source) == expectedLedger)
    #expect(try await rows(of: "events", in: reviewer.source) == expectedEvents)
    #expect(try await rows(of: "ledger", in: reviewer.source, reference: true) == expectedLedger)
    #expect(
      try await reviewer.source.read { db in
        try db.value("SELECT payload FROM ledger WHERE code = 7")
      } == .blob(binary))
    // And the remote's merged revision is that content too.
    let remoteRows = try await harness.remote.rows(
      "SELECT *, typeof(region), typeof(code), typeof(label), typeof(amount), typeof(payload) "
        + "FROM ledger ORDER BY 1, 2", at: merged.revision)
    #expect(remoteRows == expectedLedger)
  }

  @Test func theCapturedManifestNamesEachRowByItsKey() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("UPDATE events SET title = 'Lisbon' WHERE id = 1")
      try db.run("INSERT INTO events (id, title) VALUES (3, 'Braga')")
    }
    let changes = try await harness.sqlite.captureChanges(session.source, session.baseline)
    #expect(
      changes.changes.map(\.description).sorted() == ["insert events (3)", "update events (1)"])
    let update = try #require(changes.changes.first { $0.kind == .update })
    #expect(update.oldValues == [.integer(1), .text("Lisboa"), nil, nil])
    #expect(update.newValues == [nil, .text("Lisbon"), nil, nil])
    // The bytes decode to the same manifest.
    #expect(try SQLiteChangeSet(changeset: changes.changeset) == changes)
  }

  @Test func bytesThatAreNotAChangesetAreRefused() throws {
    #expect(throws: SQLiteWorkspaceError.self) {
      try SQLiteChangeSet(changeset: Data("not a changeset, just text".utf8))
    }
  }
}
