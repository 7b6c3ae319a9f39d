import ComposableWorkspace

/// A proposal as a reviewer sees it on the remote: its record, what it says, and whether its
/// target branch already contains it.
public struct GitProposal: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The record, exactly as `publishProposal` answered it.
  public var record: ProposalRecord
  /// The proposal's title (the commit subject).
  public var title: String
  /// The proposal's description (the commit body, without the workspace trailers).
  public var summary: String
  /// Who proposed it (`Name <email>`).
  public var author: String
  /// Whether the target branch's current head contains the proposal's commit.
  public var isMerged: Bool

  public init(
    record: ProposalRecord, title: String, summary: String, author: String, isMerged: Bool
  ) {
    self.record = record
    self.title = title
    self.summary = summary
    self.author = author
    self.isMerged = isMerged
  }

  public var description: String {
    "\(record.id) \"\(title)\" → \(record.target)\(isMerged ? " (merged)" : "")"
  }
}
