import ComposableWorkspace

/// The state of the proposal form: what the last publication attempt came to. Publication
/// errors belong here — to the caller's form — never to the workspace.
public enum ProposalForm: Equatable, Sendable {
  case idle
  /// A publication is running with this request (a retry sends the same request, so the same
  /// idempotency key).
  case publishing(ProposalRequest)
  case published(ProposalRecord)
  case noChanges
  /// The attempt failed before a record existed; `request` is kept so a retry reuses its key.
  case failed(ProposalRequest, reason: String)
}
