import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import ComposableWorkspaceTesting
import FossilWorkspace
import Foundation
import ProcessTestSupport
import Testing

@Suite("Fossil conformance kit", .requires(.fossil))
struct ConformanceTests {
  @Test func theFossilClientKeepsEveryRuleAgainstARealServer() async throws {
    try await FossilFixture.with { fixture in
      let session = try await fixture.signedIn(FossilFixture.ada)
      let violations = await checkWorkspaceContract {
        Self.subject(fixture, session)
      }
      #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }
  }

  /// The kit really counts the server's records: a client that publishes every call under a
  /// fresh key is caught.
  @Test func aPublishUnderAFreshKeyPerCallIsCaught() async throws {
    try await FossilFixture.with { fixture in
      let session = try await fixture.signedIn(FossilFixture.ada)
      let violations = await checkWorkspaceContract(rules: [.retrySafePublication]) {
        var subject = Self.subject(fixture, session)
        let publish = subject.client.publishProposal
        subject.client.publishProposal = { source, baseline, changes, request in
          var fresh = request
          fresh.idempotencyKey = UUID()
          return try await publish(source, baseline, changes, fresh)
        }
        return subject
      }
      #expect(violations.map(\.rule) == [.retrySafePublication, .retrySafePublication])
      #expect(violations.contains { $0.message.contains("created 2 records") })
    }
  }

  /// A subject on `fixture`'s server: a fresh workspace root and capability each time, edits
  /// of `a.txt` as the user, check-ins of `other.txt` by grace as the other writer.
  static func subject(_ fixture: FossilFixture, _ session: FossilSession)
    -> WorkspaceContractSubject<FossilWorkingCopy, FossilChangeSet>
  {
    let capability = LockIsolated<AuthoringContext?>(.editor(FossilFixture.ada))
    let client = FossilWorkspaceClient(
      session: session,
      configuration: FossilWorkspaceConfiguration(
        root: fixture.workspaces("contract-\(UUID().uuidString)")),
      capability: { capability.current })
    let edits = LockIsolated(0)
    return WorkspaceContractSubject(
      client: client.client,
      workspaceID: "catalogue",
      otherBranch: "festival",
      edit: { source in
        let file = source.files.appendingPathComponent("a.txt")
        let line = edits.withValue { count -> String in
          count += 1
          return "edit \(count)\n"
        }
        try (try Data(contentsOf: file) + Data(line.utf8)).write(to: file)
        return source
      },
      moveRemoteHead: { branch in
        try await fixture.checkIn("other.txt", "moved \(UUID())\n", on: branch.rawValue)
      },
      revokeAuthorization: { capability.setValue(nil) },
      proposalIDs: { try await fixture.proposalBranches() }
    ).comparingSources()
  }
}
