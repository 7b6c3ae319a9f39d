import SQLiteWorkspace
import WorkspaceDemoFeature

/// The demo's catalogue read from a SQLite remote, as its backend and its server both read it.
extension SQLiteWorkspaceRemote {
  /// The events of revision `revision` (its ``EventTable``), in the catalogue's order.
  public func events(at revision: String) async throws -> [Event] {
    try EventTable.events(try await rows(EventTable.selection, at: revision))
  }

  /// Every proposal in the demo's shape: its change set (its target's events against its
  /// content's), open or merged into a revision of its branch.
  public func demoProposals() async throws -> [DemoProposal] {
    var listed: [DemoProposal] = []
    for proposal in try await proposals() {
      let record = proposal.record
      listed.append(
        DemoProposal(
          id: record.id, title: proposal.title, author: proposal.author,
          branch: record.target.branch.rawValue, baseRevision: record.target.revision,
          contentRevision: record.contentRevision,
          changes: EventChangeSet.between(
            baseline: try await events(at: record.target.revision),
            working: try await events(at: record.contentRevision)),
          idempotencyKey: proposal.idempotencyKey,
          status: proposal.mergedRevision.map { .merged(into: $0) } ?? .open))
    }
    return listed
  }
}
