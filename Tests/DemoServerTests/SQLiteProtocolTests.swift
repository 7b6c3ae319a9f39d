import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import ComposableWorkspaceTesting
import DemoHTTPProtocol
import DemoSQLiteBackend
import DemoServer
import Foundation
import SQLiteWorkspace
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// A `SQLiteWorkspaceClient` on another machine, against the reference server that keeps its
/// data in SQLite: revisions travel as databases, proposals as changesets, over HTTP.
@Suite("The SQLite protocol of a server with a database")
struct SQLiteProtocolTests {
  @Test("The SQLite client over the server keeps every rule of the integration contract")
  func keepsEveryRule() async throws {
    let folder = try ServerFolder()
    defer { folder.remove() }
    let servers = LockIsolated<[TestServer]>([])
    await assertWorkspaceContract {
      let fixture = try await SQLiteServerFixture.make(in: folder.url)
      servers.withValue { $0.append(fixture.server) }
      return fixture.subject()
    }
    for server in servers.current { await server.stop() }
  }

  @Test("A server without a database says so; reads are public, proposing needs a grant")
  func accessAndAbsence() async throws {
    let plain = try TestServer()
    let anonymous = plain.session()
    let absent = try await anonymous.send(
      .get(DemoAPI.SQLite.head(of: "published"), access: .public))
    #expect(absent.status == 404)
    #expect(absent.problem?.detail.contains("--database") == true)
    await plain.stop()

    let folder = try ServerFolder()
    defer { folder.remove() }
    let fixture = try await SQLiteServerFixture.make(in: folder.url)
    let reader = SQLiteServerRemote(session: fixture.server.session()) { nil }
    #expect(try await reader.head(of: "published").revision == "r1")
    #expect(try await reader.image(of: "r1").count > 0)
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await reader.propose(
        SQLiteProposalSubmission(
          idempotencyKey: UUID(), title: "X", summary: "", author: "nobody",
          target: WorkspaceBranchReference(branch: "published", revision: "r1"),
          changeset: Data()))
    }
    await #expect(throws: SQLiteWorkspaceError.branchNotFound("nowhere")) {
      try await reader.head(of: "nowhere")
    }
    await fixture.server.stop()
  }

  @Test("A proposal made over the protocol is the catalogue's: listed with its events, merged")
  func oneCatalogueForBothProtocols() async throws {
    let folder = try ServerFolder()
    defer { folder.remove() }
    let fixture = try await SQLiteServerFixture.make(in: folder.url)
    let session = try await fixture.sqlite.prepareSource("events")
    try await session.source.write { db in
      try db.run("UPDATE events SET title = 'Gala' WHERE id = 'e1'")
    }
    let changes = try await fixture.sqlite.captureChanges(session.source, session.baseline)
    let record = try await fixture.sqlite.publishProposal(
      session.source, session.baseline, changes,
      ProposalRequest(title: "Gala", summary: "", idempotencyKey: UUID()))

    let listed = try #require(try await fixture.server.system.allProposals().first)
    #expect(listed.id == record.id)
    #expect(listed.changes.modified.map(\.after.title) == ["Gala"])
    let merged = try await fixture.sqlite.merge(proposalID: record.id)
    #expect(try await fixture.server.system.head(of: "published").id == merged.revision)
    await fixture.server.stop()
  }
}

/// A fresh folder for one test's databases.
struct ServerFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sqlite-protocol-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A durable server, ada signed in and admitted, and her SQLite client over the server.
struct SQLiteServerFixture: Sendable {
  let server: TestServer
  let system: DurableDemoSystem
  let capability: LockIsolated<AuthoringContext?>
  let sqlite: SQLiteWorkspaceClient

  static func make(in folder: URL) async throws -> SQLiteServerFixture {
    let place = folder.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
    let system = try await DurableDemoSystem(path: place.appendingPathComponent("demo.sqlite").path)
    let server = try TestServer(system: system)
    let (session, grant) = try await server.author()
    let capability = LockIsolated<AuthoringContext?>(
      AuthoringContext(
        identity: AuthoringIdentity(rawValue: grant.username),
        grant: AuthoringGrant(rawValue: grant.id), capabilities: [.edit, .publish]))
    let remote = SQLiteServerRemote(session: session) { capability.current?.grant }
    let sqlite = SQLiteWorkspaceClient(
      remote: remote, root: place.appendingPathComponent("workspaces"),
      defaultBranch: "published", capability: { capability.current })
    return SQLiteServerFixture(
      server: server, system: system, capability: capability, sqlite: sqlite)
  }

  func subject() -> WorkspaceContractSubject<SQLiteWorkspaceDatabase, SQLiteChangeSet> {
    let edits = LockIsolated(0)
    let moves = LockIsolated(0)
    return WorkspaceContractSubject(
      client: sqlite.client,
      workspaceID: "events",
      otherBranch: "festival",
      edit: { database in
        let n = edits.withValue { count -> Int in
          count += 1
          return count
        }
        try await database.write { db in
          try db.run(
            "INSERT INTO events (id, title, date, venue) VALUES (?, 'Kit', '2027-09-09', 'Lab')",
            [.text("kit-\(n)")])
        }
        return database
      },
      moveRemoteHead: { branch in
        let n = moves.withValue { count -> Int in
          count += 1
          return count
        }
        try await system.store.commit(to: branch, author: "grace", message: "elsewhere") { db in
          try db.run(
            "INSERT INTO events (id, title, date, venue) VALUES (?, 'Moved', '2027-01-01', 'X')",
            [.text("moved-\(n)")])
        }
      },
      // The server stops honouring the grant, and the app's capability is withdrawn with it.
      revokeAuthorization: {
        try? await system.revokeAllGrants()
        capability.setValue(nil)
      },
      proposalIDs: { Set(try await system.store.proposals().map(\.record.id)) }
    ).comparingSources()
  }
}
