import DemoServer
import Foundation
import SQLiteWorkspace
import Testing
import WorkspaceDemoFeature

/// `serve --database`: the system in a SQLite file keeps what it answered across a restart
/// (here: a new value on the same file), and a merge never loses a row.
@Suite("The durable demo system")
struct DurableSystemTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("durable-system-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  var path: String { folder.appendingPathComponent("demo.sqlite").path }

  static let talk = EventChangeSet(added: [
    Event(id: "e9", title: "Talk", date: "2027-05-01", venue: "Hall")
  ])

  @Test("Sessions, grants, proposals and keys are all there after a restart; a retry answers")
  func everythingAnsweredSurvivesARestart() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = UUID()
    let (session, grant, proposal): (DemoSession, DemoGrant, DemoProposal)
    do {
      let system = try await DurableDemoSystem(path: path)
      session = try await system.signIn(username: "ada", password: "lovelace")
      grant = try await system.admit(token: session.token)
      proposal = try await system.createProposal(
        grantID: grant.id, token: session.token, key: key, title: "Talk", branch: "published",
        base: "r1", changes: Self.talk)
    }

    let restarted = try await DurableDemoSystem(path: path)

    #expect(try await restarted.account(token: session.token).username == "ada")
    #expect(try await restarted.validate(grantID: grant.id, token: session.token) == grant)
    #expect(try await restarted.allProposals() == [proposal])
    #expect(proposal.changes == Self.talk)
    let retried = try await restarted.createProposal(
      grantID: grant.id, token: session.token, key: key, title: "Talk", branch: "published",
      base: "r1", changes: Self.talk)
    #expect(retried == proposal)
    #expect(try await restarted.allProposals().count == 1)
    // Numbers are never handed out twice: the next session and grant come after the old ones.
    let next = try await restarted.signIn(username: "grace", password: "hopper")
    #expect(next.token == "session-2")
    #expect(try await restarted.admit(token: next.token).id == "grant-2")
  }

  @Test("The same key with other content is refused, also after a restart")
  func aReusedKeyIsRefused() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let key = UUID()
    let system = try await DurableDemoSystem(path: path)
    let session = try await system.signIn(username: "ada", password: "lovelace")
    let grant = try await system.admit(token: session.token)
    _ = try await system.createProposal(
      grantID: grant.id, token: session.token, key: key, title: "Talk", branch: "published",
      base: "r1", changes: Self.talk)

    let restarted = try await DurableDemoSystem(path: path)
    await #expect(throws: DemoError.idempotencyConflict(key)) {
      try await restarted.createProposal(
        grantID: grant.id, token: session.token, key: key, title: "Another talk",
        branch: "published", base: "r1", changes: Self.talk)
    }
    // Another person's same key is a request of its own.
    let grace = try await restarted.signIn(username: "grace", password: "hopper")
    let graces = try await restarted.admit(token: grace.token)
    let own = try await restarted.createProposal(
      grantID: graces.id, token: grace.token, key: key, title: "Talk", branch: "published",
      base: "r1", changes: Self.talk)
    #expect(own.author == "grace")
    #expect(try await restarted.allProposals().count == 2)
  }

  @Test("A moved head creates nothing; a merge onto a moved head keeps both sides' events")
  func headsAndMerges() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let system = try await DurableDemoSystem(path: path)
    let session = try await system.signIn(username: "ada", password: "lovelace")
    let grant = try await system.admit(token: session.token)
    let first = try await system.createProposal(
      grantID: grant.id, token: session.token, key: UUID(), title: "Talk", branch: "published",
      base: "r1", changes: Self.talk)
    let rename = EventChangeSet(modified: [
      .init(
        before: Event(id: "e2", title: "Book Fair", date: "2027-01-16", venue: "Library"),
        after: Event(id: "e2", title: "Spring Book Fair", date: "2027-01-16", venue: "Library"))
    ])
    let second = try await system.createProposal(
      grantID: grant.id, token: session.token, key: UUID(), title: "Rename", branch: "published",
      base: "r1", changes: rename)

    let landed = try await system.merge(proposalID: first.id)
    #expect(landed.id == first.contentRevision)
    await #expect(
      throws: DemoError.headMoved(branch: "published", expected: "r1", actual: landed.id)
    ) {
      try await system.createProposal(
        grantID: grant.id, token: session.token, key: UUID(), title: "Late", branch: "published",
        base: "r1", changes: rename)
    }
    let merged = try await system.merge(proposalID: second.id)

    #expect(merged.events.map(\.title).contains("Talk"))
    #expect(merged.events.map(\.title).contains("Spring Book Fair"))
    #expect(try await system.revision(landed.id, of: "published").id == landed.id)
    await #expect(throws: DemoError.proposalNotOpen(first.id)) {
      try await system.merge(proposalID: first.id)
    }
  }

  @Test(
    "A merge of an event changed on both sides is refused and lands nothing, in memory and on disk"
  )
  func conflictingMergesLoseNothing() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let systems: [any ServedSystem] = [DemoSystem(), try await DurableDemoSystem(path: path)]
    for system in systems {
      let session = try await system.signIn(username: "ada", password: "lovelace")
      let grant = try await system.admit(token: session.token)
      let original = Event(
        id: "e1", title: "Winter Concert", date: "2026-12-12", venue: "Town Hall")
      func retitle(_ title: String) -> EventChangeSet {
        var changed = original
        changed.title = title
        return EventChangeSet(modified: [.init(before: original, after: changed)])
      }
      let mine = try await system.createProposal(
        grantID: grant.id, token: session.token, key: UUID(), title: "Mine", branch: "published",
        base: "r1", changes: retitle("Gala"))
      let theirs = try await system.createProposal(
        grantID: grant.id, token: session.token, key: UUID(), title: "Theirs",
        branch: "published", base: "r1", changes: retitle("Ball"))
      let head = try await system.merge(proposalID: mine.id)

      await #expect(throws: DemoError.mergeConflict(proposal: theirs.id, events: ["e1"])) {
        try await system.merge(proposalID: theirs.id)
      }
      #expect(try await system.head(of: "published") == head, "\(type(of: system))")
      #expect(try await system.allProposals().first { $0.id == theirs.id }?.status == .open)
    }
  }

  @Test("A seeding a crash interrupted is completed at the next start")
  func anInterruptedSeedIsCompleted() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    // As a process killed after the first branch was created leaves the file.
    let store = try SQLiteRemoteStore(path: path)
    try await store.createBranch("published", author: "demo-cli") { db in
      try db.execute(
        "CREATE TABLE events (id TEXT PRIMARY KEY, title TEXT NOT NULL, "
          + "date TEXT NOT NULL, venue TEXT NOT NULL)")
    }

    let system = try await DurableDemoSystem(path: path)

    #expect(try await system.branches() == ["festival", "published"])
    #expect(try await system.head(of: "festival").events.map(\.id) == ["f1", "f2"])
  }

  @Test("A file that is not the system's is refused and left as it was")
  func aForeignFileIsRefused() async throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = Data(String(repeating: "not a database ", count: 30).utf8)
    try text.write(to: URL(fileURLWithPath: path))

    await #expect {
      _ = try await DurableDemoSystem(path: path)
    } throws: { error in
      guard case .unavailable(let reason) = error as? DemoError else { return false }
      return reason.contains(path)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
  }
}
