/// A remote proposal record, as `publishProposal` reports it once the remote created it.
///
/// Record creation is the publication commit point. The record identifies exactly what was
/// published and against what; it is reported to the caller (`.publication(.published)`) and
/// never installed into workspace state — proposals are remote records, not workspace modes,
/// and the baseline does not change. Later projection lag (a list that does not show the record
/// yet) is the integration's business (a delivery receipt), never a workspace failure.
public struct ProposalRecord: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The proposal's identity on the remote.
  public var id: String
  /// The revision of the proposed content.
  public var contentRevision: String
  /// The baseline the proposal targets; it must equal the installed baseline the changes were
  /// captured against.
  public var target: WorkspaceBranchReference

  public init(id: String, contentRevision: String, target: WorkspaceBranchReference) {
    self.id = id
    self.contentRevision = contentRevision
    self.target = target
  }

  public var description: String { "proposal \(id) (content \(contentRevision), target \(target))" }
}
