import ComposableWorkspace

/// What content wrapped by ``AuthoringWorkspace`` may ask of its workspace. The layer sends
/// each request to Workspace as the matching action (see ``WorkspaceRouting``); preparing and
/// interrupting are the layer's own business, never the content's.
public enum WorkspaceRequest: Hashable, Sendable {
  /// `captureChanges`: a preview of the working changes (answered with `changesCaptured` or
  /// `captureFailed`).
  case captureChanges
  /// `publishProposal(request)` (answered with exactly one `publication(outcome)`).
  case publishProposal(ProposalRequest)
  /// `refreshBaseline` (a failure is answered with `refreshFailed`).
  case refreshBaseline
  /// `selectBranch(branch)` (answered with `branchSelected` or `branchSelectionFailed`).
  case selectBranch(BranchName)

  /// The Workspace action that carries out the request.
  func action<Source, ChangeSet>() -> Workspace<Source, ChangeSet>.Action {
    switch self {
    case .captureChanges: .captureChanges
    case .publishProposal(let request): .publishProposal(request)
    case .refreshBaseline: .refreshBaseline
    case .selectBranch(let branch): .selectBranch(branch)
    }
  }
}
