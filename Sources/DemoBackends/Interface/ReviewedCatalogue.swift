import ComposableCore
import ComposableWorkspace
import WorkspaceDemoFeature

/// A catalogue a backend reads revision by revision and reviews through a reviewer's client:
/// what the application's `CatalogueClient` and the host's ``CatalogueReader`` both need,
/// given three operations.
///
/// ```swift
/// struct FossilCatalogue: ReviewedCatalogue {
///   var location: String { reviewer.session.baseURL.absoluteString }
///   func events(atRevision revision: String) async throws -> [Event] { … }
///   func listing() async throws -> [DemoProposal] { … }
///   func merge(proposalID: String) async throws -> WorkspaceBranchReference { … }
///   …
/// }
/// ```
public protocol ReviewedCatalogue: CatalogueReader {
  /// Where the catalogue is (a remote's URL or path), for messages.
  var location: String { get }
  /// The events of revision `revision`.
  func events(atRevision revision: String) async throws -> [Event]
  /// Every proposal, in the demo's shape (open, or merged into a revision).
  func listing() async throws -> [DemoProposal]
  /// The reviewer merges proposal `proposalID`; answers its branch's new head.
  func merge(proposalID: String) async throws -> WorkspaceBranchReference
}

extension ReviewedCatalogue {
  /// The `CatalogueClient` the application uses. A listing that fails is reported as an issue
  /// and reads as no proposals (the application's list stays usable).
  public var client: CatalogueClient {
    CatalogueClient(
      events: { reference in try await self.events(atRevision: reference.revision) },
      proposals: {
        do {
          return try await self.listing()
        } catch {
          reportIssue("Listing the proposals of \(self.location) failed: \(error)")
          return []
        }
      },
      merge: { id in try await self.merge(proposalID: id) }
    )
  }

  public func events(at reference: WorkspaceBranchReference) async -> [Event]? {
    try? await events(atRevision: reference.revision)
  }

  public func allProposals() async -> [DemoProposal] {
    (try? await listing()) ?? []
  }
}
