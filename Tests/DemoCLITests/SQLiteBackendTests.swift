import ComposableWorkspace
import DemoSQLiteBackend
import Foundation
import SQLiteWorkspace
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

/// The demo on a SQLite remote: a store file created by each test in its own folder, working
/// databases beside it.
@MainActor
@Suite("The SQLite backend")
struct SQLiteBackendTests {
  @Test(
    "The walk on a new SQLite remote: P1 and P2 against r1, the merge, the refresh, P3 against the new head"
  )
  func walk() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let remote = directory.appendingPathComponent("catalogue.sqlite").path

    let run = await runCLI(["--backend", "sqlite", "--remote", remote])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.errors.isEmpty, "\(run.errors)")
    let text = run.output
    #expect(!text.contains("✗"), "\(text)")
    let expected = [
      "remote: \(remote) had no branches; seeded it with published and festival",
      "demo-cli walk — the whole story, on the SQLite remote \(remote)",
      "ready at published@r1 · 3 events",
      "\\+ e4 “Poetry Evening” 2027-03-05 @ Old Bookshop",
      "✓ proposal P1 · content r3 · target published@r1\n",
      "✓ proposal P2 · content r4 · target published@r1\n",
      "✓ P1 merged: published@r3 is the new head",
      "a fast-forward: P1's own revision is the branch's new head",
      "✓ baseline refreshed: published@r1 → published@r3",
      "✓ proposal P3 · content r5 · target published@r3\n",
      "✓ P3 was created against published@r3",
      "the remote stays: sqlite3 \(remote) ",
    ]
    try expectInOrder(expected, in: text, asRegexes: true)

    // The remote holds the three proposals; the branch moved to P1's content, which has e4.
    let store = try SQLiteRemoteStore(path: remote)
    let proposals = try await store.proposals()
    #expect(proposals.map(\.record.id) == ["P1", "P2", "P3"])
    #expect(proposals.map(\.mergedRevision) == ["r3", nil, nil])
    #expect(Set(proposals.map(\.author)) == ["ada"])
    let head = try await store.head(of: "published")
    #expect(head.revision == "r3")
    #expect(
      try await store.rows("SELECT title FROM events WHERE id = 'e4'", at: head.revision)
        == [["Poetry Evening"]])
    #expect(try await store.head(of: "festival").revision == "r2")
  }

  @Test("--remote new creates a seeded store and the walk exits 0")
  func newRemote() async throws {
    let run = await runCLI(["--backend", "sqlite", "--remote", "new"])
    #expect(run.status == 0, "\(run.output)")
    let remote = try #require(run.output.firstMatch(of: #/remote: (\S+) \(new SQLite remote/#)?.1)
    defer {
      try? FileManager.default.removeItem(
        at: URL(fileURLWithPath: String(remote)).deletingLastPathComponent())
    }
    let store = try SQLiteRemoteStore(path: String(remote))
    #expect(try await store.proposals().count == 3)
  }

  @Test("A --remote that is not a SQLite remote: one clear line, exit 1, the file untouched")
  func badRemote() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("notes.txt")
    let text = Data(String(repeating: "not a database. ", count: 20).utf8)
    try text.write(to: file)

    let run = await runCLI(["--backend", "sqlite", "--remote", file.path])

    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(
      run.errors.hasPrefix("demo-cli: --remote \(file.path) is not a usable SQLite remote: "),
      "\(run.errors)")
    #expect(run.errors.filter { $0 == "\n" }.count == 1, "more than one line: \(run.errors)")
    #expect(try Data(contentsOf: file) == text)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
  }

  @Test("Every edit is in the working database at once; --state reopens it with its edits")
  func workingDatabaseFollowsEdits() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let remote = directory.appendingPathComponent("catalogue.sqlite").path
    let state = directory.appendingPathComponent("state").path

    let first = await runCLI(
      ["--backend", "sqlite", "--remote", remote, "--state", state, "repl"],
      input: ["signin ada lovelace", "add e4 Talk --venue Hall", "rename e1 Gala"])
    #expect(first.status == 0, "\(first.output)\(first.errors)")

    // What `sqlite3 <state>.workspaces/events/working.sqlite 'select * from events'` shows.
    let client = SQLiteWorkspaceClient(
      remote: try SQLiteRemoteStore(path: remote),
      root: URL(fileURLWithPath: state + ".workspaces"), capability: { nil })
    let database = try #require(try client.preparedDatabase(for: "events"))
    let titles = try await database.read { db in
      try db.rows("SELECT id, title FROM events ORDER BY id")
    }
    #expect(
      titles == [["e1", "Gala"], ["e2", "Book Fair"], ["e3", "Science Night"], ["e4", "Talk"]])

    let second = await runCLI(
      ["--backend", "sqlite", "--remote", remote, "--state", state, "repl"],
      input: ["signin ada lovelace", "diff"])
    #expect(second.status == 0, "\(second.output)\(second.errors)")
    try expectInOrder(
      ["ready at published@r1 · 4 events", "+ e4 “Talk”", "~ e1 “Winter Concert”"],
      in: second.output)

    let elsewhere = directory.appendingPathComponent("other.sqlite").path
    let refused = await runCLI(
      ["--backend", "sqlite", "--remote", elsewhere, "--state", state, "repl"], input: [])
    #expect(refused.status == 1)
    #expect(refused.errors.contains("belongs to the SQLite remote \(remote)"), "\(refused.errors)")
  }
}
