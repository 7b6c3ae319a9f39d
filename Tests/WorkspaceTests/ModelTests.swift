import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing

@Suite("Durable model and errors")
struct ModelTests {
  @Test("a ready state round-trips through Codable; ids and branches encode as strings")
  func codable() throws {
    let state = Fixture.ready
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(FakeState.self, from: data) == state)

    let json = try #require(String(data: try JSONEncoder().encode(Fixture.main1), encoding: .utf8))
    #expect(json.contains("\"branch\":\"main\""))
    #expect(String(data: try JSONEncoder().encode(Fixture.id), encoding: .utf8) == "\"events\"")

    let failed = FakeState(
      id: "x",
      availability: .preparationFailed(WorkspaceFailure(kind: .transient, message: "offline")))
    #expect(try JSONDecoder().decode(FakeState.self, from: JSONEncoder().encode(failed)) == failed)
  }

  @Test("WorkspaceFailure keeps a readable message and classifies the error")
  func failureFromError() {
    #expect(
      WorkspaceFailure(FakeError(description: "disk full"))
        == WorkspaceFailure(kind: .other, message: "disk full"))
    #expect(WorkspaceFailure(WorkspaceUnavailableError("offline")).kind == .transient)
    #expect(
      WorkspaceFailure(WorkspaceAuthorizationError.invalidated).kind == .authorizationInvalidated)
    let mismatch = WorkspaceHeadMismatch(expected: Fixture.main1, actual: Fixture.main2)
    #expect(
      WorkspaceFailure(mismatch)
        == WorkspaceFailure(
          kind: .headMoved, message: "The remote head moved: expected main@r1, found main@r2."
        ))
    #expect(WorkspaceFailure(WorkspaceContractViolation("bad")).kind == .invalidIntegratorOutput)
    let failure = WorkspaceFailure(kind: .transient, message: "x")
    #expect(WorkspaceFailure(failure) == failure)
  }

  @Test("ProposalRequest(title:summary:) takes a fresh key from the uuid dependency")
  func requestKeys() {
    let (first, second) = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      (ProposalRequest(title: "A", summary: "a"), ProposalRequest(title: "B", summary: "b"))
    }
    #expect(first.idempotencyKey == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    #expect(second.idempotencyKey == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
  }

  @Test("the live and test clients are unimplemented, so the app must install one")
  func unimplementedByDefault() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      do {
        _ = try await FakeClient.liveValue.selectBranch(Fixture.source, "main")
        Issue.record("expected the unimplemented endpoint to throw")
      } catch {
        #expect(
          error as? UnimplementedEndpoint
            == UnimplementedEndpoint(endpoint: "WorkspaceClient.selectBranch"))
      }
    }
    #expect(recorder.messages.count == 1)
  }

  @Test("operations are the effect ids, keyed by workspace, and availability names its case")
  func operationsAndCaseNames() {
    #expect(
      WorkspaceOperation.all(of: "a").map(\.kind) == [
        .preparation, .refresh, .selection, .capture, .publication,
      ])
    #expect(WorkspaceOperation.refresh(of: "a") == WorkspaceOperation(.refresh, of: "a"))
    #expect(WorkspaceOperation.refresh(of: "a") != WorkspaceOperation.refresh(of: "b"))
    #expect("\(WorkspaceOperation.publication(of: "events"))" == "publication of events")
    #expect(Fixture.ready.availability.caseName == "ready")
    #expect(Fixture.ready.session == Fixture.session)
    #expect(Fixture.inactive.session == nil)
  }
}
