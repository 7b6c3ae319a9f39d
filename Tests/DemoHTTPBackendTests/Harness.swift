import ComposableCore
import ComposableWorkspace
import ComposableWorkspaceTesting
import DemoBackendInterface
import DemoHTTPBackend
import DemoServer
import Foundation
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

@testable import ComposableAuthoring

/// A reference server on loopback and the HTTP backend's clients on it.
final class Harness: Sendable {
  let server: DemoServer
  let credentials = DemoCredentials()
  let clients: DemoBackendClients

  /// Clients on `server` (a new one by default).
  init(server: DemoServer? = nil, configuration: HTTPBackendConfiguration = Harness.configuration)
    throws
  {
    self.server = try server ?? DemoServer()
    clients = HTTPBackend(server: self.server.baseURL, configuration: configuration)
      .clients(credentials: credentials, workingCopies: [])
  }

  /// Short enough for tests, long enough for a loaded machine.
  static let configuration = HTTPBackendConfiguration(
    timeout: .seconds(10), signInTimeout: .seconds(20))

  var system: any ServedSystem { server.service.system }
  var auth: AuthClient { clients.application.auth }
  var authoring: AuthoringClient { clients.application.authoring }

  /// Signs `username` in at the door, as the application would.
  @discardableResult
  func signIn(_ username: String = "ada", _ password: String = "lovelace") async throws
    -> DemoSession
  {
    try await auth.signIn(username, password)
  }

  /// Signs `username` (ada) in and admits her; publishes her capability as Authoring would.
  @discardableResult
  func author(_ username: String = "ada", _ password: String = "lovelace") async throws
    -> AuthoringContext
  {
    try await signIn(username, password)
    let context = try await authoring.requestAdmission()
    credentials.capability.publish(context)
    return context
  }

  /// Prepares workspace `events`, adds `event` and proposes it.
  func propose(_ event: Event) async throws -> ProposalRecord {
    let client = clients.application.workspace
    let session = try await client.prepareSource("events")
    var source = session.source
    source.events.append(event)
    let changes = try await client.captureChanges(source, session.baseline)
    return try await client.publishProposal(
      source, session.baseline, changes,
      ProposalRequest(title: event.title, summary: "", idempotencyKey: UUID()))
  }

  func close() async {
    await clients.live?.close()
    await server.stop()
  }
}

/// Harnesses made for one test, all closed at its end.
final class Harnesses: Sendable {
  private let made = LockIsolated<[Harness]>([])

  /// A harness on `server` (a new in-memory one by default), closed by ``closeAll()``.
  func make(server: DemoServer? = nil) throws -> Harness {
    let harness = try Harness(server: server)
    made.withValue { $0.append(harness) }
    return harness
  }

  func closeAll() async {
    for harness in made.withValue({ $0 }) { await harness.close() }
  }
}

/// A conformance subject: ada, signed in and admitted, on a fresh server.
func contractSubject(_ harness: Harness) async throws
  -> WorkspaceContractSubject<EventWorkingCopy, EventChangeSet>
{
  try await harness.author()
  let system = harness.system
  let moves = LockIsolated(0)
  return WorkspaceContractSubject(
    client: harness.clients.application.workspace,
    workspaceID: "events",
    otherBranch: "festival",
    edit: { source in
      var edited = source
      edited.events.append(
        Event(id: "kit", title: "Edited by the kit", date: "2027-09-09", venue: "Lab"))
      return edited
    },
    moveRemoteHead: { branch in
      // Someone else's proposal lands on the branch (on the server's system directly).
      let n = moves.withValue { count -> Int in
        count += 1
        return count
      }
      let other = try await system.signIn(username: "grace", password: "hopper")
      let grant = try await system.admit(token: other.token)
      let head = try await system.head(of: branch.rawValue)
      let proposal = try await system.createProposal(
        grantID: grant.id, token: other.token, key: UUID(), title: "move \(n)",
        branch: branch.rawValue, base: head.id,
        changes: EventChangeSet(added: [
          Event(id: "moved-\(n)", title: "Moved", date: "2027-01-01", venue: "Elsewhere")
        ]))
      _ = try await system.merge(proposalID: proposal.id)
    },
    // The server stops honouring the grant (the capability the client reads stays).
    revokeAuthorization: { try? await system.revokeAllGrants() },
    proposalIDs: { Set(try await system.allProposals().filter { $0.author == "ada" }.map(\.id)) }
  )
  .comparingSources()
}
