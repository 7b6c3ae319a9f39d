import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import DemoHTTPProtocol
import WorkspaceDemoFeature
import WorkspaceHTTP

/// The catalogue on the demo server: revisions, branch heads and proposal records are public
/// reads; merging is a reviewer's session call.
struct HTTPCatalogue: CatalogueReader {
  let server: DemoServerConnection

  /// The `CatalogueClient` the application uses.
  var client: CatalogueClient {
    CatalogueClient(
      events: { reference in
        try await server.get(
          DemoAPI.revision(reference.revision, of: reference.branch.rawValue),
          as: DemoAPI.Revision.self
        ).events
      },
      proposals: {
        do {
          return try await server.get(DemoAPI.proposals, as: [DemoProposal].self)
        } catch {
          reportIssue("Listing the proposals of \(server.session.baseURL) failed: \(error)")
          return []
        }
      },
      merge: { id in
        let merged = try await server.change(.post, DemoAPI.merge(id), as: DemoAPI.Merged.self)
        return WorkspaceBranchReference(
          branch: BranchName(merged.branch), revision: merged.revision)
      }
    )
  }

  func events(at reference: WorkspaceBranchReference) async -> [Event]? {
    try? await client.events(reference)
  }

  func head(of branch: BranchName) async -> String? {
    try? await server.get(DemoAPI.branches, as: [DemoAPI.Branch].self)
      .first { $0.name == branch.rawValue }?.head
  }

  func branches() async -> [String] {
    ((try? await server.get(DemoAPI.branches, as: [DemoAPI.Branch].self)) ?? []).map(\.name)
      .sorted()
  }

  func allProposals() async -> [DemoProposal] {
    (try? await server.get(DemoAPI.reviewProposals, as: [DemoProposal].self)) ?? []
  }

  func proposal(named id: String) async -> DemoProposal? {
    try? await server.get(DemoAPI.reviewProposal(id), as: DemoProposal.self)
  }
}
