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
  /// The attempt was interrupted (authoring was left or lost) before the service answered;
  /// whether a record was created is unknown. `request` is kept: a retry sends it again with
  /// the same key, which answers the record if one exists and creates one otherwise.
  case interrupted(ProposalRequest)
  /// The remote created a record for `request`, but the service's answer broke the contract
  /// (reported as an issue). Nothing of the answer is kept; the record exists, so this attempt
  /// is over — proposing again is a new proposal.
  case unconfirmed(ProposalRequest)
}

extension ProposalForm {
  /// The request a retry sends again (same idempotency key): after a failure or an
  /// interruption; `nil` otherwise.
  public var retryableRequest: ProposalRequest? {
    switch self {
    case .failed(let request, _), .interrupted(let request): request
    case .idle, .publishing, .published, .noChanges, .unconfirmed: nil
    }
  }
}
