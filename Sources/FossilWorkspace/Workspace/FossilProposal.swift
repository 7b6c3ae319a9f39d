import ComposableWorkspace
import Foundation

/// A proposal on the Fossil server, as a reviewer lists it: its branch, what it targets, its
/// newest check-in, and whether a reviewer merged it.
public struct FossilProposal: Hashable, Sendable, CustomStringConvertible {
  /// The proposal's branch (`ProposalRecord.id`).
  public var id: String
  /// The idempotency key of the attempt that made it.
  public var key: UUID?
  /// The proposal's title (the first line of its check-ins' comments).
  public var title: String
  /// Who checked it in.
  public var author: String?
  /// Its newest check-in (`ProposalRecord.contentRevision` once complete).
  public var head: String
  /// The baseline it targets.
  public var target: WorkspaceBranchReference
  /// The target's check-in that completed a reviewer's merge of it, if any.
  public var mergedInto: String?

  public init(
    id: String, key: UUID?, title: String, author: String?, head: String,
    target: WorkspaceBranchReference, mergedInto: String?
  ) {
    self.id = id
    self.key = key
    self.title = title
    self.author = author
    self.head = head
    self.target = target
    self.mergedInto = mergedInto
  }

  public var description: String {
    "\(id) “\(title)” at \(head), target \(target)"
      + (mergedInto.map { ", merged into \($0)" } ?? "")
  }
}
