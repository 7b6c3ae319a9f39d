import ComposableCore
import ComposableWorkspace
import Foundation
import LoopbackHTTPServer
import ProcessTestSupport
import Testing
import WorkspaceHTTP

@testable import FossilWorkspace

@Suite("Fossil publication faults", .requires(.fossil))
struct PublicationFaultTests {
  @Test func aRetryAnswersTheSameRecordAndTheServerHoldsIt() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, edited\n")
      try harness.edit("b.txt", "bravo, edited\n")
      let changes = try await harness.capture()
      #expect(changes.changes.map(\.description) == ["M a.txt", "M b.txt"])
      let request = WorkspaceHarness.request()
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, request)
      let again = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, request)
      #expect(again == record)
      #expect(record.id == "proposal-\(request.idempotencyKey.uuidString.lowercased())")
      #expect(record.target == harness.baseline)
      #expect(try await fixture.proposalBranches() == [record.id])
      // The proposal holds both files on top of the baseline; trunk did not move.
      let files = try await FossilRepository(session: harness.session).files(
        of: record.contentRevision)
      let repository = FossilRepository(session: harness.session)
      #expect(
        String(
          decoding: try await repository.artifact(try #require(files["a.txt"]).hash), as: UTF8.self)
          == "alpha, edited\n")
      #expect(
        String(
          decoding: try await repository.artifact(try #require(files["b.txt"]).hash), as: UTF8.self)
          == "bravo, edited\n")
      #expect(try await fixture.head(of: "trunk") == harness.baseline.revision)
    }
  }

  @Test func aHeadMovedByAnotherUserIsRefusedBeforeAnythingIsWritten() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, mine\n")
      let changes = try await harness.capture()
      let moved = try await fixture.checkIn("other.txt", "grace was here\n", on: "trunk")
      await #expect(
        throws: WorkspaceHeadMismatch(
          expected: harness.baseline,
          actual: WorkspaceBranchReference(branch: "trunk", revision: moved))
      ) {
        try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, WorkspaceHarness.request())
      }
      #expect(try await fixture.proposalBranches().isEmpty)
    }
  }

  /// The server is SIGKILLed at a step of the publication (the request lost with it, or
  /// done and its answer lost), then restarted on the same repository: the retry with the
  /// same request answers exactly one record, holding the whole change set.
  @Test(arguments: [
    KillPoint.beforeBranchCreation, .afterBranchCreation, .afterFirstFileCheckIn,
    .beforeSecondFileCheckIn,
  ])
  func theServerKilledDuringPublishAndRestartedGivesExactlyOneRecord(_ point: KillPoint)
    async throws
  {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let restarted = LockIsolated<LocalFossilServer?>(nil)
      do {
        let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
        try harness.edit("a.txt", "alpha, proposed\n")
        try harness.edit("b.txt", "bravo, proposed\n")
        let changes = try await harness.capture()
        let request = WorkspaceHarness.request()
        let seen = LockIsolated(0)
        proxy.intercept { incoming in
          point.matches(incoming, seen) ? point.interception(killing: fixture.server) : nil
        }
        await #expect(throws: FossilUnavailable.self) {
          try await harness.fossil.publishProposal(
            harness.source, harness.baseline, changes, request)
        }
        #expect(fixture.server.hasExited)
        proxy.intercept { _ in nil }
        let server = try await LocalFossilServer.start(serving: fixture.repository)
        restarted.setValue(server)
        proxy.setUpstream(server.baseURL)
        let record = try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, request)
        #expect(try await fixture.proposalBranches() == [record.id])
        let again = try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, request)
        #expect(again == record)
        let repository = FossilRepository(session: harness.session)
        let files = try await repository.files(of: record.contentRevision)
        #expect(
          String(
            decoding: try await repository.artifact(try #require(files["b.txt"]).hash),
            as: UTF8.self) == "bravo, proposed\n")
      } catch {
        await restarted.current?.stop()
        await proxy.stop()
        throw error
      }
      await restarted.current?.stop()
      await proxy.stop()
    }
  }

  @Test func aWriteWithoutItsRefererIsACSRFRefusalAndNothingIsCreated() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(
        fixture, configuration: FossilSessionConfiguration(timeout: .seconds(10), csrf: .none))
      try harness.edit("a.txt", "alpha, no referer\n")
      let changes = try await harness.capture()
      let error = await #expect(throws: FossilError.self) {
        try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, WorkspaceHarness.request())
      }
      #expect(error == .csrfRefused(request: "POST /fileedit/commit"))
      #expect(error?.description.contains("CSRF") == true)
      // The JSON API's refusal (an SQLite authorizer error) is named the same way.
      let branch = await #expect(throws: FossilError.self) {
        try await FossilRepository(session: harness.session)
          .createBranch("proposal-no-referer", from: harness.baseline.revision)
      }
      #expect(branch == .csrfRefused(request: "POST /json/branch/create"))
      #expect(try await fixture.proposalBranches().isEmpty)
    }
  }

  @Test func aKeyReusedForAnotherChangeSetIsAConflict() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, first\n")
      let request = WorkspaceHarness.request()
      _ = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, try await harness.capture(), request)
      try harness.edit("a.txt", "alpha, second\n")
      let other = try await harness.capture()
      let error = await #expect(throws: FossilWorkspaceError.self) {
        try await harness.fossil.publishProposal(harness.source, harness.baseline, other, request)
      }
      guard case .proposalConflict(_, let reason)? = error else {
        Issue.record("expected a conflict, got \(String(describing: error))")
        return
      }
      #expect(reason == "it holds another change set")
      #expect(try await fixture.proposalBranches().count == 1)
    }
  }

  @Test func addedAndDeletedFilesAreRefusedBeforeAnythingIsSent() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("new.txt", "new\n")
      try FileManager.default.removeItem(at: harness.source.files.appendingPathComponent("b.txt"))
      let changes = try await harness.capture()
      #expect(changes.changes.map(\.description) == ["D b.txt", "A new.txt"])
      await #expect(throws: FossilWorkspaceError.unsupportedChanges(paths: ["b.txt", "new.txt"])) {
        try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, WorkspaceHarness.request())
      }
      #expect(try await fixture.proposalBranches().isEmpty)
    }
  }
}

/// Where the server is killed during a publication of two files.
enum KillPoint: String, Sendable, CustomTestStringConvertible {
  /// The branch creation never reaches the server.
  case beforeBranchCreation
  /// The branch is created; its answer is lost with the server.
  case afterBranchCreation
  /// The first file is checked in; its answer is lost with the server.
  case afterFirstFileCheckIn
  /// The second file's check-in never reaches the server.
  case beforeSecondFileCheckIn

  var testDescription: String { rawValue }

  /// Whether `request` is the one to act on (`seen` counts the real check-ins so far).
  func matches(_ request: HTTPServerRequest, _ seen: LockIsolated<Int>) -> Bool {
    switch self {
    case .beforeBranchCreation, .afterBranchCreation:
      return request.path == "/json/branch/create"
    case .afterFirstFileCheckIn, .beforeSecondFileCheckIn:
      guard request.path == "/fileedit/commit", request.formFields["dry_run"] == "0" else {
        return false
      }
      let index = seen.withValue { count -> Int in
        count += 1
        return count
      }
      return index == (self == .afterFirstFileCheckIn ? 1 : 2)
    }
  }

  func interception(killing server: LocalFossilServer) -> FossilProxy.Interception {
    switch self {
    case .beforeBranchCreation, .beforeSecondFileCheckIn:
      FossilProxy.Interception(before: { await server.kill() }, forward: false, loseAnswer: true)
    case .afterBranchCreation, .afterFirstFileCheckIn:
      FossilProxy.Interception(after: { await server.kill() }, loseAnswer: true)
    }
  }
}

@Suite("Fossil answering garbage", .requires(.fossil))
struct GarbageAnswerTests {
  static let garbage = HTTPServerResponse(
    status: 200, headers: ["Content-Type": "text/html"],
    body: .bytes(Data("<html><body>Service temporarily replaced</body></html>\u{0}".utf8)))

  @Test func aGarbledAnswerDuringPreparationLeavesNoHalfMadeWorkingCopy() async throws {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let session = try await fixture.signedIn(FossilFixture.ada, at: proxy.baseURL)
      let fossil = FossilWorkspaceClient(
        session: session, configuration: FossilWorkspaceConfiguration(root: fixture.workspaces()),
        capability: { .editor(FossilFixture.ada) })
      proxy.intercept { request in
        request.path == "/raw" ? FossilProxy.Interception(replacement: Self.garbage) : nil
      }
      let error = await #expect(throws: FossilError.self) {
        try await fossil.prepareSource("garbled")
      }
      #expect(
        error == .unexpectedAnswer(request: "GET /raw (manifest)", reason: "it holds no card"))
      #expect(
        !FileManager.default.fileExists(atPath: fossil.workingCopy(for: "garbled").folder.path))
      proxy.intercept { _ in nil }
      let prepared = try await fossil.prepareSource("garbled")
      #expect(prepared.baseline.revision == (try await fixture.head(of: "trunk")))
      await proxy.stop()
    }
  }

  @Test func aGarbledAnswerToTheCheckInIsAClearErrorAndTheRetryMakesOneRecord() async throws {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
      try harness.edit("a.txt", "alpha, garbled\n")
      let changes = try await harness.capture()
      let request = WorkspaceHarness.request()
      proxy.intercept { incoming in
        incoming.path == "/fileedit/commit" && incoming.formFields["dry_run"] == "0"
          ? FossilProxy.Interception(replacement: Self.garbage) : nil
      }
      let error = await #expect(throws: FossilError.self) {
        try await harness.fossil.publishProposal(harness.source, harness.baseline, changes, request)
      }
      #expect(
        error
          == .unexpectedAnswer(request: "POST /fileedit/commit", reason: "no new check-in in it"))
      proxy.intercept { _ in nil }
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, request)
      #expect(try await fixture.proposalBranches() == [record.id])
      await proxy.stop()
    }
  }
}

@Suite("Fossil's own stale-parent refusal", .requires(.fossil))
struct StaleParentTests {
  /// Another user checks in on the target between the client's head check and its dry run:
  /// Fossil itself refuses the baseline (no longer a leaf), and nothing is created.
  @Test func aCheckInLandingAfterTheHeadCheckIsRefusedByTheServer() async throws {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
      try harness.edit("a.txt", "alpha, raced\n")
      let changes = try await harness.capture()
      let moved = LockIsolated<String?>(nil)
      proxy.intercept { request in
        guard request.path == "/fileedit/commit", request.formFields["dry_run"] == "1" else {
          return nil
        }
        return FossilProxy.Interception(before: {
          moved.setValue(try? await fixture.checkIn("other.txt", "raced\n", on: "trunk"))
        })
      }
      let mismatch = await #expect(throws: WorkspaceHeadMismatch.self) {
        try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, WorkspaceHarness.request())
      }
      let actual = try #require(moved.current)
      #expect(mismatch?.expected == harness.baseline)
      #expect(mismatch?.actual == WorkspaceBranchReference(branch: "trunk", revision: actual))
      #expect(try await fixture.proposalBranches().isEmpty)
      await proxy.stop()
    }
  }
}
