import ComposableCore

extension Workspace {
  /// What a workspace can be asked to do, and what it tells its parent.
  ///
  /// Requests other than `prepareSource` and `interruptAuthorizedWork` need a ready session;
  /// sent at another time they are invalid actions: reported with `reportIssue`, ignored.
  public enum Action: Sendable {
    /// Creates or opens the session: from `inactive` or `preparationFailed` to `preparing`,
    /// then `ready` or `preparationFailed`. Keeps a ready session (no client call); ignored
    /// while already preparing.
    case prepareSource
    /// Asks for the current revision of the installed branch and installs it (revision only).
    /// Failure: `.delegate(.refreshFailed)`, session kept. Tracked as
    /// ``WorkspaceOperation/refresh(of:)``.
    case refreshBaseline
    /// Installs exactly `branch` as the baseline: `.delegate(.branchSelected)` or
    /// `.delegate(.branchSelectionFailed)`, session kept on failure. Tracked as
    /// ``WorkspaceOperation/selection(of:)``.
    case selectBranch(BranchName)
    /// Captures the working changes against the installed baseline for a preview:
    /// `.delegate(.changesCaptured)` or `.delegate(.captureFailed)`. Tracked as
    /// ``WorkspaceOperation/capture(of:)``.
    case captureChanges
    /// Captures, then publishes one proposal with `request` (retrying transient failures with
    /// the same key). Exactly one `.delegate(.publication(…))` tells how the attempt ended,
    /// unless `interruptAuthorizedWork` cancelled it (then `.delegate(.interrupted)` tells; a
    /// newer `publishProposal` supersedes it and its outcome answers instead). The baseline
    /// never changes. Tracked as ``WorkspaceOperation/publication(of:)``.
    case publishProposal(ProposalRequest)
    /// Cancels every operation in flight (for example because the grant was invalidated) and
    /// posts `.delegate(.interrupted)` at once, so every requester still waiting stops waiting
    /// — even for work whose task had not started. A ready session is kept; an interrupted
    /// preparation returns to `inactive`.
    case interruptAuthorizedWork
    /// Outcomes for the parent and the requesting UI; ``Workspace`` itself ignores them.
    case delegate(Delegate)

    /// What a workspace tells its parent. None of these is workspace state.
    public enum Delegate: Sendable {
      /// A client answered ``WorkspaceAuthorizationError/invalidated``: the server stopped
      /// honouring the capability. The requesting operation's own failure was delivered just
      /// before; the workspace cancels its other operations (by sending itself
      /// `interruptAuthorizedWork` right after this) and keeps any ready session. The parent
      /// tells Authoring (`AuthoringWorkspace` sends it `grantRevoked`).
      case authorizationInvalidated
      /// `refreshBaseline` failed (or the client broke the contract); the session is intact.
      case refreshFailed(WorkspaceFailure)
      /// `selectBranch` installed this exact baseline.
      case branchSelected(WorkspaceBranchReference)
      /// `selectBranch(requested)` failed (or the client answered another branch); the session
      /// is intact.
      case branchSelectionFailed(requested: BranchName, WorkspaceFailure)
      /// `captureChanges` captured these changes against the installed baseline.
      case changesCaptured(ChangeSet)
      /// `captureChanges` failed; the session is intact.
      case captureFailed(WorkspaceFailure)
      /// How a `publishProposal` attempt ended.
      case publication(PublicationOutcome)
      /// `interruptAuthorizedWork` cancelled every operation in flight: a requester still
      /// waiting for an answer gets none. It keeps its request — a publication retried with the
      /// same request (same idempotency key) answers the record if one was created meanwhile,
      /// and creates one otherwise. A record created anyway is still delivered afterwards, as
      /// `.publication(.published(record))`. Posted whether or not anything was running.
      case interrupted
    }
  }

  /// The case path of ``Action/delegate(_:)``, for a parent's `receive` and `Scope` code.
  ///
  /// ```swift
  /// await store.receive(Workspace<EventSource, EventPatch>.delegateCase)
  /// ```
  public static var delegateCase: CasePath<Action, Action.Delegate> {
    CasePath(embed: Action.delegate) {
      if case .delegate(let delegate) = $0 { delegate } else { nil }
    }
  }
}

extension Workspace.Action: Equatable where ChangeSet: Equatable {}
extension Workspace.Action.Delegate: Equatable where ChangeSet: Equatable {}
