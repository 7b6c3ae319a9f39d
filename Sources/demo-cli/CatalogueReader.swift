import ComposableWorkspace
import WorkspaceDemoFeature

/// What the tool reads of the catalogue besides the application's own reads: events for
/// markers and summaries, branch heads, and the store of record of proposals (a reviewer's
/// view, without projection lag). One per backend; nothing here changes anything.
protocol CatalogueReader: Sendable {
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

/// The in-memory system's catalogue.
struct SystemCatalogue: CatalogueReader {
  let system: DemoSystem

  func events(at reference: WorkspaceBranchReference) async -> [Event]? {
    try? await system.revision(reference.revision, of: reference.branch.rawValue).events
  }

  func head(of branch: BranchName) async -> String? {
    try? await system.head(of: branch.rawValue).id
  }

  func branches() async -> [String] {
    await system.branches()
  }

  func allProposals() async -> [DemoProposal] {
    await system.allProposals()
  }

  func proposal(named id: String) async -> DemoProposal? {
    await system.allProposals().first { $0.id == id }
  }
}
