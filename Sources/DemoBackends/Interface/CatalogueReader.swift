import ComposableWorkspace
import WorkspaceDemoFeature

/// What a host reads of the catalogue besides the application's own reads: events for
/// markers and summaries, branch heads, and the store of record of proposals (a reviewer's
/// view, without projection lag). One per backend; nothing here changes anything.
public protocol CatalogueReader: Sendable {
  /// The events of one revision, or `nil` when it cannot be read.
  func events(at reference: WorkspaceBranchReference) async -> [Event]?
  /// The newest revision of `branch`, or `nil` when there is no such branch.
  func head(of branch: BranchName) async -> String?
  /// The branch names, sorted.
  func branches() async -> [String]
  /// Every proposal record.
  func allProposals() async -> [DemoProposal]
  /// The proposal `id` names (its id, or another name the backend accepts for it).
  func proposal(named id: String) async -> DemoProposal?
}
