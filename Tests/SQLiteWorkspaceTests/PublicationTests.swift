import ComposableWorkspace
import Foundation
import SQLiteWorkspace
import Testing

/// Proposals are changesets on the remote, created once per idempotency key; a merge applies
/// one in one transaction or reports its conflicts and changes nothing.
@Suite("Publication and merge on the remote")
struct PublicationTests {
  @Test func aRetryAfterTheTargetMovedAnswersTheRecordItAlreadyMade() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in try db.run("UPDATE events SET title = 'x'") }
    let changes = try await harness.sqlite.captureChanges(session.source, session.baseline)
    let request = ProposalRequest(title: "Rename", summary: "", idempotencyKey: UUID())
    let record = try await harness.sqlite.publishProposal(
      session.source, session.baseline, changes, request)
    try await harness.commitElsewhere()

    let retried = try await harness.sqlite.publishProposal(
      session.source, session.baseline, changes, request)

    #expect(retried == record)
    #expect(try await harness.remote.proposals().count == 1)
  }

  @Test func aMovedTargetIsAHeadMismatchAndCreatesNothing() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in try db.run("UPDATE events SET title = 'x'") }
    let changes = try await harness.sqlite.captureChanges(session.source, session.baseline)
    let moved = try await harness.commitElsewhere()

    await #expect(throws: WorkspaceHeadMismatch(expected: session.baseline, actual: moved)) {
      try await harness.sqlite.publishProposal(
        session.source, session.baseline, changes,
        ProposalRequest(title: "Rename", summary: "", idempotencyKey: UUID()))
    }
    #expect(try await harness.remote.proposals().isEmpty)
  }

  @Test func aKeyReusedForOtherContentIsRefused() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let session = try await harness.sqlite.prepareSource("catalogue")
    let request = ProposalRequest(title: "Rename", summary: "", idempotencyKey: UUID())
    try await session.source.write { db in try db.run("UPDATE events SET title = 'x'") }
    let first = try await harness.sqlite.captureChanges(session.source, session.baseline)
    let record = try await harness.sqlite.publishProposal(
      session.source, session.baseline, first, request)
    try await session.source.write { db in try db.run("UPDATE events SET title = 'y'") }
    let second = try await harness.sqlite.captureChanges(session.source, session.baseline)

    await #expect(
      throws: SQLiteWorkspaceError.proposalKeyReused(
        key: request.idempotencyKey.uuidString, existing: record.id)
    ) {
      try await harness.sqlite.publishProposal(session.source, session.baseline, second, request)
    }
  }

  @Test func aMergeOntoAMovedBranchKeepsBothSidesRows() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let record = try await Self.propose(
      "INSERT INTO events (id, title) VALUES (2, 'Porto')", titled: "Porto", with: harness)
    let moved = try await harness.commitElsewhere(id: 60)

    let merged = try await harness.sqlite.merge(proposalID: record.id)

    #expect(merged.branch == "main")
    #expect(merged.revision != moved.revision && merged.revision != record.contentRevision)
    #expect(
      try await harness.remote.rows("SELECT id FROM events ORDER BY id", at: merged.revision)
        == [[1], [2], [60]])
    let proposal = try #require(try await harness.remote.proposals().first)
    #expect(proposal.mergedRevision == merged.revision)
    // Merging it again changes nothing.
    #expect(try await harness.sqlite.merge(proposalID: record.id) == merged)
    #expect(try await harness.remote.head(of: "main") == merged)
  }

  @Test func aMergeThatConflictsReportsTheRowsAndMergesNothing() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let record = try await Self.propose(
      "UPDATE events SET title = 'mine'", titled: "Mine", with: harness)
    let moved = try await harness.remote.commit(to: "main", author: "grace", message: "theirs") {
      db in try db.run("UPDATE events SET title = 'theirs'")
    }

    await #expect(
      throws: SQLiteWorkspaceError.mergeConflict(
        proposal: record.id,
        conflicts: [
          SQLiteConflict(
            row: SQLiteRowID(table: "events", primaryKey: [1]), reason: .changedOnBothSides)
        ])
    ) {
      try await harness.sqlite.merge(proposalID: record.id)
    }
    #expect(try await harness.remote.head(of: "main") == moved)
    #expect(try await harness.remote.proposals().first?.isMerged == false)
  }

  @Test func aMergeOntoABranchWhoseTableChangedIsRefusedNotEmptied() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    let record = try await Self.propose(
      "INSERT INTO events (id, title) VALUES (2, 'Porto')", titled: "Porto", with: harness)
    let migrated = try await harness.remote.commit(to: "main", author: "grace", message: "drop") {
      db in try db.execute("ALTER TABLE events DROP COLUMN poster")
    }

    await #expect {
      try await harness.sqlite.merge(proposalID: record.id)
    } throws: { error in
      guard case .schemaChanged(let table, _) = error as? SQLiteWorkspaceError else {
        return false
      }
      return table == "events"
    }
    #expect(try await harness.remote.head(of: "main") == migrated)
    #expect(try await harness.remote.proposals().first?.isMerged == false)
  }

  @Test func everyRemoteCallNeedsTheCapability() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let harness = try await SQLiteHarness.make(in: folder.url)
    harness.capability.setValue(nil)

    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await harness.sqlite.prepareSource("catalogue")
    }
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await harness.sqlite.proposals()
    }
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await harness.sqlite.merge(proposalID: "p1")
    }
  }

  /// Prepares the catalogue, runs `statement` on it and proposes the change as `title`;
  /// answers the record.
  private static func propose(
    _ statement: String, titled title: String, with harness: SQLiteHarness
  ) async throws -> ProposalRecord {
    let session = try await harness.sqlite.prepareSource("catalogue")
    try await session.source.write { db in try db.run(statement) }
    return try await harness.sqlite.publishProposal(
      session.source, session.baseline,
      try await harness.sqlite.captureChanges(session.source, session.baseline),
      ProposalRequest(title: title, summary: "", idempotencyKey: UUID()))
  }
}
