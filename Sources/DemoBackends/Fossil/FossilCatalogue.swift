import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import FossilWorkspace
import Foundation
import WorkspaceDemoFeature

/// The catalogue on a Fossil server, read and reviewed: revision snapshots (``CatalogueFile``
/// at a check-in), branch heads, the proposals in the demo's shape, and the reviewer's merge.
/// Reads are public calls (they work signed out when the server lets `nobody` read); the
/// listing and the merge are the reviewer's Fossil workspace client's.
struct FossilCatalogue: ReviewedCatalogue {
  let reader: FossilReader
  let reviewer: FossilWorkspaceClient

  var location: String { reviewer.session.baseURL.absoluteString }

  func merge(proposalID: String) async throws -> WorkspaceBranchReference {
    try await reviewer.merge(proposalID: proposalID)
  }

  func head(of branch: BranchName) async -> String? {
    try? await reader.head(of: branch)
  }

  /// The branches, proposals left out.
  func branches() async -> [String] {
    let prefix = reviewer.configuration.proposalPrefix
    return ((try? await reader.branches()) ?? []).filter { !$0.hasPrefix(prefix) }
  }

  /// A proposal by its id (its branch) or its bare key.
  func proposal(named id: String) async -> DemoProposal? {
    let key = id.lowercased()
    return await allProposals().first {
      $0.id == id || $0.idempotencyKey?.uuidString.lowercased() == key
    }
  }

  /// The events of check-in `revision`.
  func events(atRevision revision: String) async throws -> [Event] {
    try CatalogueFile.decoded(try await reader.catalogueData(at: revision))
  }

  /// Every proposal on the server in the demo's shape: its change set (its baseline's events
  /// against its own), open or merged — and then into which check-in.
  func listing() async throws -> [DemoProposal] {
    var listed: [DemoProposal] = []
    for proposal in try await reviewer.listProposals() {
      let changes = EventChangeSet.between(
        baseline: try await events(atRevision: proposal.target.revision),
        working: try await events(atRevision: proposal.head))
      listed.append(
        DemoProposal(
          id: proposal.id, title: proposal.title, author: proposal.author ?? "",
          branch: proposal.target.branch.rawValue, baseRevision: proposal.target.revision,
          contentRevision: proposal.head, changes: changes,
          idempotencyKey: proposal.key,
          status: proposal.mergedInto.map { .merged(into: $0) } ?? .open))
    }
    return listed
  }
}

extension UUID {
  /// The bytes of the nil UUID.
  fileprivate static let zero: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
