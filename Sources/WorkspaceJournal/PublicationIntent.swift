import ComposableWorkspace
import Foundation

/// One publication attempt, as it is made durable before the client is asked to create its
/// record: the request (title, summary and the idempotency key every retry sends), the
/// workspace and baseline it publishes against, a digest of its change set, and the person
/// who made it.
///
/// An intent belongs to its ``owner``: only that person's attempts may send it again (see
/// ``PublicationJournal``); anyone else is shown it, never made to send it.
public struct PublicationIntent: Codable, Hashable, Sendable {
  /// The request, with the key the remote uses to recognise a retry.
  public var request: ProposalRequest
  /// The workspace the attempt publishes from, when the journal was told
  /// (``ComposableWorkspace/WorkspaceClient/journaling(_:owner:workspace:checkpoint:)-(_,()->String?,_,_)``).
  public var workspace: WorkspaceID?
  /// The baseline the changes were captured against (the proposal's target).
  public var baseline: WorkspaceBranchReference
  /// ``ChangeDigest`` of the change set the attempt publishes.
  public var changes: String
  /// Who made the attempt (the authoring identity in force when it began), or `nil` when the
  /// journal was installed without an owner.
  public var owner: String?

  public init(
    request: ProposalRequest, workspace: WorkspaceID?, baseline: WorkspaceBranchReference,
    changes: String, owner: String?
  ) {
    self.request = request
    self.workspace = workspace
    self.baseline = baseline
    self.changes = changes
    self.owner = owner
  }

  /// The attempt's idempotency key.
  public var key: UUID { request.idempotencyKey }
}
