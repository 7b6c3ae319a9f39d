import ComposableAuthoring
import ComposableWorkspace
import Foundation
import SQLiteWorkspace
import Testing

/// The snippet of SQLiteWorkspace's article "A database-backed workspace", run.
@Suite("Downstream guide: a database-backed workspace")
struct GuideSQLiteWorkspaceTests {
  @Test("The article's snippet prepares, edits, reads the reference, captures and publishes")
  func articleSnippet() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("guide-sqlite-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let capability = AuthoringCapabilityProvider(
      inForce: AuthoringContext(
        identity: AuthoringIdentity(rawValue: "ada"), grant: AuthoringGrant(rawValue: "g1"),
        capabilities: [.edit, .publish]))

    // guide:begin sqlite-workspace
    let remote = try SQLiteRemoteStore(path: folder.appendingPathComponent("remote.sqlite").path)
    try await remote.createBranch("main", author: "setup") { db in
      try db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
      try db.run("INSERT INTO events (id, title) VALUES (1, 'Winter Concert')")
    }
    let sqlite = SQLiteWorkspaceClient(
      remote: remote, root: folder.appendingPathComponent("workspaces"), capability: capability)

    // Workspace prepares the source once; descendants work through that exact value.
    let session = try await sqlite.prepareSource("catalogue")
    try await session.source.write { db in
      try db.run("UPDATE events SET title = ? WHERE id = ?", ["New Year Concert", 1])
      try db.run("INSERT INTO events (id, title) VALUES (?, ?)", [2, "Book Fair"])
    }
    let before = try await session.source.readReference { db in
      try db.value("SELECT title FROM events WHERE id = 1")
    }  // 'Winter Concert': the baseline, as it was prepared

    // The change manifest Workspace publishes: one row change per key.
    let changes = try await sqlite.captureChanges(session.source, session.baseline)
    let record = try await sqlite.publishProposal(
      session.source, session.baseline, changes,
      ProposalRequest(title: "New Year", summary: "", idempotencyKey: UUID()))
    // guide:end

    #expect(before == "Winter Concert")
    #expect(
      changes.changes.map(\.description).sorted() == ["insert events (2)", "update events (1)"])
    #expect(record.target == session.baseline)
    #expect(try await remote.proposals().map(\.record) == [record])
    #expect(try await remote.proposals().first?.author == "ada")
  }
}
