import ComposableCore
import ComposableWorkspace

/// The demo's read and review access to the published catalogue: revision snapshots, the
/// proposal listing, and merging (a reviewer's action). Not part of the
/// workspace contract.
public struct CatalogueClient: DependencyKey, Sendable {
  /// The events of one revision.
  public var events: @Sendable (_ at: WorkspaceBranchReference) async throws -> [Event]
  /// The proposals the server lists now (subject to projection lag).
  public var proposals: @Sendable () async -> [DemoProposal]
  /// Lands a proposal on its branch; returns the new revision.
  public var merge: @Sendable (_ proposalID: String) async throws -> WorkspaceBranchReference

  public init(
    events: @escaping @Sendable (WorkspaceBranchReference) async throws -> [Event],
    proposals: @escaping @Sendable () async -> [DemoProposal],
    merge: @escaping @Sendable (String) async throws -> WorkspaceBranchReference
  ) {
    self.events = events
    self.proposals = proposals
    self.merge = merge
  }

  public static var liveValue: CatalogueClient { unimplementedClient }
  public static var testValue: CatalogueClient { unimplementedClient }

  private static var unimplementedClient: CatalogueClient {
    CatalogueClient(
      events: unimplemented("CatalogueClient.events"),
      proposals: unimplemented("CatalogueClient.proposals", placeholder: []),
      merge: unimplemented("CatalogueClient.merge")
    )
  }

  /// The client over the in-memory system.
  public static func demo(system: DemoSystem) -> CatalogueClient {
    CatalogueClient(
      events: { reference in
        try await system.revision(reference.revision, of: reference.branch.rawValue).events
      },
      proposals: { await system.listProposals() },
      merge: { id in
        let revision = try await system.merge(proposalID: id)
        let proposal = await system.allProposals().first { $0.id == id }
        return WorkspaceBranchReference(
          branch: BranchName(proposal?.branch ?? "published"), revision: revision.id)
      }
    )
  }
}
