import ComposableWorkspace
import ComposableWorkspaceTesting
import DemoServer
import Foundation
import Testing
import WorkspaceDemoFeature

/// The HTTP-backed workspace client keeps the integration contract, against the real
/// reference server over loopback sockets (a fresh server per rule).
@Suite("HTTP backend: conformance")
struct ConformanceTests {
  @Test("The HTTP workspace client keeps every rule of the integration contract")
  func keepsEveryRule() async {
    let harnesses = Harnesses()
    await assertWorkspaceContract { try await contractSubject(harnesses.make()) }
    await harnesses.closeAll()
  }

  @Test("The same client keeps every rule on a server that keeps its data in SQLite")
  func keepsEveryRuleOnADurableServer() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("durable-kit-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let harnesses = Harnesses()
    await assertWorkspaceContract {
      let system = try await DurableDemoSystem(
        path: folder.appendingPathComponent("\(UUID().uuidString).sqlite").path)
      let server = try DemoServer(service: DemoService(system: system))
      return try await contractSubject(harnesses.make(server: server))
    }
    await harnesses.closeAll()
  }

  @Test("A client that forgets its idempotency keys fails the kit over HTTP too")
  func forgetfulClientFails() async {
    let harnesses = Harnesses()
    let violations = await checkWorkspaceContract(rules: [.retrySafePublication]) {
      var subject = try await contractSubject(harnesses.make())
      let publish = subject.client.publishProposal
      subject.client.publishProposal = { source, baseline, changes, request in
        var fresh = request
        fresh.idempotencyKey = UUID()
        return try await publish(source, baseline, changes, fresh)
      }
      return subject
    }
    await harnesses.closeAll()
    #expect(Set(violations.map(\.rule)) == [.retrySafePublication])
  }

  @Test("The server stopping to honour the grant is .invalidated at every operation")
  func revokedOnTheServer() async throws {
    let harness = try Harness()
    try await harness.author()
    let client = harness.clients.application.workspace
    let session = try await client.prepareSource("events")
    try await harness.system.revokeAllGrants()
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await client.captureChanges(session.source, session.baseline)
    }
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await client.publishProposal(
        session.source, session.baseline,
        EventChangeSet(added: [Event(id: "x", title: "X", date: "2027-01-01", venue: "Y")]),
        ProposalRequest(title: "X", summary: "", idempotencyKey: UUID()))
    }
    #expect(try await harness.system.allProposals().isEmpty)
    await harness.close()
  }
}
