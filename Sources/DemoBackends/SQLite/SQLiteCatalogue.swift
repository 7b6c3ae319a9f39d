import ComposableAuthoring
import ComposableWorkspace
import DemoBackendInterface
import DemoSQLiteCatalogue
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

/// The catalogue on a SQLite remote, read and reviewed: the events of any revision (read from
/// that revision's database), branch heads, the proposals in the demo's shape, and the
/// reviewer's merge (the SQLite client's own, run with the demo's reviewer as its capability:
/// reviewing is not authoring, as on the in-memory system).
struct SQLiteCatalogue: ReviewedCatalogue {
  let remote: SQLiteRemoteStore
  let reviewer: SQLiteWorkspaceClient

  init(remote: SQLiteRemoteStore, root: URL) {
    self.remote = remote
    self.reviewer = SQLiteWorkspaceClient(
      remote: remote, root: root, defaultBranch: SQLiteBackend.publishedBranch,
      capability: { Self.reviewerContext })
  }

  /// Who merges: the demo's reviewer (not one of the accounts that sign in).
  static let reviewerContext = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "reviewer"),
    grant: AuthoringGrant(rawValue: "reviewer"),
    capabilities: [.edit, .publish]
  )

  var location: String { remote.path }

  func events(atRevision revision: String) async throws -> [Event] {
    try await remote.events(at: revision)
  }

  func merge(proposalID: String) async throws -> WorkspaceBranchReference {
    try await reviewer.merge(proposalID: proposalID)
  }

  func head(of branch: BranchName) async -> String? {
    try? await remote.head(of: branch).revision
  }

  func branches() async -> [String] {
    ((try? await remote.branches()) ?? []).map(\.branch.rawValue).sorted()
  }

  func proposal(named id: String) async -> DemoProposal? {
    await allProposals().first { $0.id.caseInsensitiveCompare(id) == .orderedSame }
  }

  func listing() async throws -> [DemoProposal] {
    try await remote.demoProposals()
  }
}
