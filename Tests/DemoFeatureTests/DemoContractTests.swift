import ComposableCore
import ComposableWorkspace
import ComposableWorkspaceTesting
import Foundation
import Testing
import WorkspaceDemoFeature

@testable import ComposableAuthoring

/// The in-memory client keeps the integration contract, checked by the same kit as the Git client.
@Suite("In-memory client conformance")
struct DemoContractTests {
  @Test("The in-memory workspace client keeps every rule of the integration contract")
  func demoClientKeepsEveryRule() async {
    let violations = await checkWorkspaceContract { try await makeDemoSubject() }
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
  }

  @Test("A client that forgets its idempotency keys fails the kit, naming the rule")
  func brokenClientIsNamed() async {
    let violations = await checkWorkspaceContract(rules: [.retrySafePublication]) {
      var subject = try await makeDemoSubject()
      let publish = subject.client.publishProposal
      subject.client.publishProposal = { source, baseline, changes, request in
        // A fresh key on every call: a retry makes a second record.
        let fresh = ProposalRequest(
          title: request.title, summary: request.summary, idempotencyKey: UUID())
        return try await publish(source, baseline, changes, fresh)
      }
      return subject
    }
    #expect(!violations.isEmpty)
    #expect(Set(violations.map(\.rule)) == [.retrySafePublication])
  }
}

/// A signed-in, admitted author's client over a fresh system.
private func makeDemoSubject() async throws -> WorkspaceContractSubject<
  EventWorkingCopy, EventChangeSet
> {
  let system = DemoSystem()
  let session = try await system.signIn(username: "ada", password: "lovelace")
  let grant = try await system.admit(token: session.token)
  let credentials = DemoCredentials(DemoCredentials.Values(session: session))
  // What Authoring would publish after admitting ada.
  credentials.capability.publish(
    AuthoringContext(
      identity: AuthoringIdentity(rawValue: "ada"), grant: AuthoringGrant(rawValue: grant.id),
      capabilities: [.edit, .publish]))
  let moves = LockIsolated(0)
  return WorkspaceContractSubject(
    client: .demo(system: system, credentials: credentials),
    workspaceID: "events",
    otherBranch: "festival",
    edit: { source in
      var edited = source
      edited.events.append(
        Event(id: "kit", title: "Edited by the kit", date: "2027-09-09", venue: "Lab"))
      return edited
    },
    moveRemoteHead: { branch in
      // Someone else's proposal lands on the branch.
      let n = moves.withValue { count -> Int in
        count += 1
        return count
      }
      let other = try await system.signIn(username: "grace", password: "hopper")
      let otherGrant = try await system.admit(token: other.token)
      let head = try await system.head(of: branch.rawValue)
      let proposal = try await system.createProposal(
        grantID: otherGrant.id, token: other.token, key: UUID(), title: "move \(n)",
        branch: branch.rawValue, base: head.id,
        changes: EventChangeSet(added: [
          Event(id: "moved-\(n)", title: "Moved", date: "2027-01-01", venue: "Elsewhere")
        ]))
      _ = try await system.merge(proposalID: proposal.id)
    },
    revokeAuthorization: { await system.revokeAllGrants() },
    // The records this author's client created (moving the head lands someone else's).
    proposalIDs: { Set(await system.allProposals().filter { $0.author == "ada" }.map(\.id)) }
  )
  .comparingSources()
}
