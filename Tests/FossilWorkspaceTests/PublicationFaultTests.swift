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
  /// A change set whose files hold what the baseline holds changes nothing: Fossil's commit
  /// refuses it, and nothing reaches the server.
  @Test func aChangeSetThatChangesNothingIsNothingToPropose() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      let unchanged = try WorkingCopyStore(copy: harness.source).capture(Data("alpha\n".utf8))
      let changes = FossilChangeSet(
        baseline: harness.baseline.revision,
        changes: [.modified(path: "a.txt", content: unchanged, executable: false)])
      await #expect(throws: FossilWorkspaceError.nothingToPropose) {
        try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, WorkspaceHarness.request())
      }
      #expect(try await fixture.proposalBranches().isEmpty)
    }
  }

  /// Fossil ends a sync whose transport command failed with a warning and status 0, having
  /// forgotten what it queued to send: the publication must say so, and a retry send it.
  @Test func aPushWhoseTransportCommandFailedIsReportedAndARetrySendsIt() async throws {
    try await FossilFixture.with { fixture in
      let failNextPush = fixture.directory.appendingPathComponent("fail-next-push")
      try Data().write(to: failNextPush)
      let wrapper = fixture.directory.appendingPathComponent("fossil-failing-transport")
      try await installExecutable(
        """
        #!/bin/sh
        # The first push runs `false` as its transport command.
        if [ "$1" = push ] && rm '\(failNextPush.path)' 2>/dev/null; then
          previous=
          for argument do
            shift
            if [ "$previous" = --transport-command ]; then set -- "$@" false
            else set -- "$@" "$argument"; fi
            previous=$argument
          done
        fi
        exec '\(FossilCommand().executable.path)' "$@"
        """, at: wrapper)
      let fossil = FossilWorkspaceClient(
        session: try await fixture.signedIn(FossilFixture.ada),
        configuration: FossilWorkspaceConfiguration(
          root: fixture.workspaces(), fossilExecutable: wrapper),
        capability: { .editor(FossilFixture.ada) })
      let prepared = try await fossil.prepareSource("transport")
      try Data("alpha, edited\n".utf8).write(
        to: prepared.source.files.appendingPathComponent("a.txt"))
      let changes = try await fossil.captureChanges(prepared.source, prepared.baseline)
      let request = WorkspaceHarness.request()
      let failure = await #expect(throws: FossilUnavailable.self) {
        try await fossil.publishProposal(prepared.source, prepared.baseline, changes, request)
      }
      #expect(
        failure?.message.contains("transport command failed") == true,
        "\(String(describing: failure))")
      #expect(!FileManager.default.fileExists(atPath: failNextPush.path), "the push ran")
      #expect(try await fixture.proposalBranches().isEmpty)

      let record = try await fossil.publishProposal(
        prepared.source, prepared.baseline, changes, request)
      #expect(try await fixture.proposalBranches() == [record.id])
      #expect(try await fixture.head(of: record.id) == record.contentRevision)
    }
  }

  @Test func aProposalIsOneCheckInOnItsOwnBranchAndARetryAnswersIt() async throws {
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
      // One check-in, whose only parent is the baseline, holding both files; trunk stayed.
      let manifest = try await fixture.artifact(record.contentRevision)
      let parents = manifest.split(separator: "\n").filter { $0.hasPrefix("P ") }
      #expect(parents == ["P \(harness.baseline.revision)"])
      #expect(try await fixture.head(of: record.id) == record.contentRevision)
      #expect(
        try await fixture.cat("a.txt", at: record.contentRevision) == Data("alpha, edited\n".utf8))
      #expect(
        try await fixture.cat("b.txt", at: record.contentRevision) == Data("bravo, edited\n".utf8))
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

  /// The server is SIGKILLed at the push (before its message reaches the server, or after the
  /// server stored it and before the answer), then restarted on the same repository: the
  /// retry with the same request answers exactly one record, holding the whole change set.
  @Test(arguments: [KillPoint.beforePush, .afterPush])
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
        proxy.intercept { incoming in
          KillPoint.isPush(incoming) ? point.interception(killing: fixture.server) : nil
        }
        await #expect(throws: (any Error).self) {
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
        #expect(
          try await fixture.cat("b.txt", at: record.contentRevision)
            == Data("bravo, proposed\n".utf8))
      } catch {
        await restarted.current?.stop()
        await proxy.stop()
        throw error
      }
      await restarted.current?.stop()
      await proxy.stop()
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

  /// A check-in lands on the target while the proposal's push is on its way (the window no
  /// client check can close: Fossil has no conditional push). The call does not claim a
  /// proposal made on the head: it reports the move, with the proposal it made; the retry of
  /// the same attempt answers that proposal (a retry looks up its own record first).
  @Test func aCheckInLandingDuringThePushIsReportedNeverClaimed() async throws {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
      try harness.edit("a.txt", "alpha, raced\n")
      let changes = try await harness.capture()
      let request = WorkspaceHarness.request()
      let moved = LockIsolated<String?>(nil)
      proxy.intercept { incoming in
        guard KillPoint.isPush(incoming), moved.current == nil else { return nil }
        return FossilProxy.Interception(before: {
          moved.setValue(try? await fixture.checkIn("other.txt", "raced\n", on: "trunk"))
        })
      }
      let error = await #expect(throws: FossilWorkspaceError.self) {
        try await harness.fossil.publishProposal(harness.source, harness.baseline, changes, request)
      }
      let actual = try #require(moved.current)
      guard case .headMovedDuringPublication(let id, let revision, let expected, let now)? = error
      else {
        Issue.record("expected the move to be reported, got \(String(describing: error))")
        return
      }
      #expect(expected == harness.baseline)
      #expect(now == WorkspaceBranchReference(branch: "trunk", revision: actual))
      #expect(try await fixture.proposalBranches() == [id])
      proxy.intercept { _ in nil }
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, request)
      #expect(record == ProposalRecord(id: id, contentRevision: revision, target: harness.baseline))
      await proxy.stop()
    }
  }
}

/// Where the server is killed during a publication's push.
enum KillPoint: String, Sendable, CustomTestStringConvertible {
  /// The push's message never reaches the server.
  case beforePush
  /// The server stores the pushed check-in; its answer is lost with the server.
  case afterPush

  var testDescription: String { rawValue }

  /// Whether `request` is a sync message that pushes artifacts (a `push` card and a `file`).
  static func isPush(_ request: HTTPServerRequest) -> Bool {
    let text = String(decoding: request.body, as: UTF8.self)
    return request.method == .post && text.contains("\npush ") && text.contains("\nfile ")
  }

  func interception(killing server: LocalFossilServer) -> FossilProxy.Interception {
    switch self {
    case .beforePush:
      FossilProxy.Interception(before: { await server.kill() }, forward: false, loseAnswer: true)
    case .afterPush:
      FossilProxy.Interception(after: { await server.kill() }, loseAnswer: true)
    }
  }
}

@Suite("Fossil answering garbage", .requires(.fossil))
struct GarbageAnswerTests {
  static let garbage = HTTPServerResponse(
    status: 200, headers: ["Content-Type": "text/html"],
    body: .bytes(Data("<html><body>Service temporarily replaced</body></html>\u{0}".utf8)))

  static let garbled = FossilError.unexpectedAnswer(
    request: "POST / (sync)", reason: "the reply is not a Fossil sync message")

  @Test func aGarbledAnswerDuringPreparationLeavesNoHalfMadeWorkingCopyOrClone() async throws {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let session = try await fixture.signedIn(FossilFixture.ada, at: proxy.baseURL)
      let root = fixture.workspaces()
      let fossil = FossilWorkspaceClient(
        session: session, configuration: FossilWorkspaceConfiguration(root: root),
        capability: { .editor(FossilFixture.ada) })
      proxy.intercept { request in
        request.method == .post && request.path == "/"
          ? FossilProxy.Interception(replacement: Self.garbage) : nil
      }
      await #expect(throws: Self.garbled) { try await fossil.prepareSource("garbled") }
      #expect(
        !FileManager.default.fileExists(atPath: fossil.workingCopy(for: "garbled").folder.path))
      let clones = try FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent(".fossil").path)
      // Only fossil's own settings file (FOSSIL_HOME/.fossil) and the clone's lock: no partial
      // clone, no relay.
      #expect(
        clones.filter { !$0.hasSuffix(".fossil.lock") } == [".fossil"], "left behind: \(clones)")
      proxy.intercept { _ in nil }
      let prepared = try await fossil.prepareSource("garbled")
      #expect(prepared.baseline.revision == (try await fixture.head(of: "trunk")))
      await proxy.stop()
    }
  }

  @Test func aGarbledAnswerToThePushIsAClearErrorAndTheRetryMakesOneRecord() async throws {
    try await FossilFixture.with { fixture in
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
      try harness.edit("a.txt", "alpha, garbled\n")
      let changes = try await harness.capture()
      let request = WorkspaceHarness.request()
      proxy.intercept { incoming in
        KillPoint.isPush(incoming)
          ? FossilProxy.Interception(forward: false, replacement: Self.garbage) : nil
      }
      await #expect(throws: Self.garbled) {
        try await harness.fossil.publishProposal(harness.source, harness.baseline, changes, request)
      }
      #expect(try await fixture.proposalBranches().isEmpty)
      proxy.intercept { _ in nil }
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, request)
      #expect(try await fixture.proposalBranches() == [record.id])
      await proxy.stop()
    }
  }
}
