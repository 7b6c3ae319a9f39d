import ComposableCore

/// The workspace feature: it owns the editable source, the exact branch baseline and proposal
/// publication, for one ``WorkspaceID``.
///
/// ```swift
/// Scope(state: \.workspace, action: .workspace) {
///   Workspace<EventSource, EventPatch>()
/// }
/// ```
///
/// It calls the ``WorkspaceClient`` installed for `WorkspaceClient<Source, ChangeSet>` and
/// applies results to state directly (`state.modify`), with no response actions. Its rules:
///
/// - **Durable state is only ``WorkspaceState``.** Refresh, selection, capture and publication
///   are operations tracked by ``WorkspaceOperation`` effect ids, which carry the workspace's
///   ``WorkspaceID`` (`store.isEffectInFlight(WorkspaceOperation.refresh(of: id))`), so two
///   workspaces composed side by side never cancel each other; their outcomes go to the
///   requesting UI as delegate actions.
/// - **Preparation** (`prepareSource`) moves `inactive`/`preparationFailed` to `preparing`, then
///   to `ready(session)` or `preparationFailed(failure)`. A ready session is kept (no client
///   call); a second request while preparing is ignored.
/// - **A failed operation leaves the ready session intact.**
/// - **Refresh** installs a newer revision of the same branch only. **Selection** installs
///   exactly the requested branch and cancels a refresh in flight.
/// - **Publication** (`publishProposal`) is one effect: capture against the installed baseline;
///   an empty change set ends as `.noChanges` without a remote call; otherwise publish, retrying
///   ``WorkspaceTransientError``s on `@Dependency(\.clock)` per ``publicationRetry`` with the
///   same request (same idempotency key). ``WorkspaceHeadMismatch`` ends as `.headMoved`, other
///   errors before the record as `.failed`. `interruptAuthorizedWork` posts `.interrupted` itself
///   (an attempt whose task had not started never runs, so only the interrupting action can
///   tell), and the requester keeps its request for the retry. Record creation is the commit
///   point: the record is reported as `.published` (`.publishedInvalidRecord` when its target
///   is wrong) even after an interruption, never installed; the baseline never changes.
/// - **Authorization**: a client throwing ``WorkspaceAuthorizationError/invalidated`` fails the
///   requesting operation (its requester hears it, with a failure of kind
///   ``WorkspaceFailure/Kind/authorizationInvalidated``), then the workspace posts
///   `.delegate(.authorizationInvalidated)` and sends itself `interruptAuthorizedWork`,
///   cancelling its operations and keeping a ready session; an invalidated preparation returns
///   to `inactive` (not `preparationFailed`) and posts only the delegate. The parent sends
///   `interruptAuthorizedWork` itself when it learns of the loss first (an invalidated grant).
/// - **Invalid actions** (anything but `prepareSource`/`interruptAuthorizedWork` while not ready)
///   and **invalid client output** (another branch, a record targeting another baseline) are
///   reported with `reportIssue` and never become state; the output is not installed, and the
///   requesting UI is told the operation failed (without the invalid output) — or, for a
///   record, that one exists (`.publishedInvalidRecord`).
public struct Workspace<Source: Sendable, ChangeSet: WorkspaceChangeSet>: Reducer {
  public typealias State = WorkspaceState<Source>

  /// How `publishProposal` retries transient failures.
  public var publicationRetry: PublicationRetryPolicy

  @Dependency(WorkspaceClient<Source, ChangeSet>.self) var client
  @Dependency(\.clock) var clock

  /// Creates the feature.
  ///
  /// - Parameter publicationRetry: how `publishProposal` retries transient failures.
  public init(publicationRetry: PublicationRetryPolicy = .standard) {
    self.publicationRetry = publicationRetry
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .prepareSource:
      prepareSource(&state)
    case .refreshBaseline:
      refreshBaseline(state)
    case .selectBranch(let branch):
      selectBranch(branch, state)
    case .captureChanges:
      captureChanges(state)
    case .publishProposal(let request):
      publishProposal(request, state)
    case .interruptAuthorizedWork:
      interruptAuthorizedWork(&state)
    case .delegate:
      .none
    }
  }

  /// The ready session, or `nil` after reporting `action` as invalid.
  func readySession(
    _ state: State, for action: @autoclosure () -> String
  ) -> WorkspaceSession<Source>? {
    guard let session = state.session else {
      reportIssue(
        """
        Workspace \(state.id): \(action()) was sent while the workspace is \
        \(state.availability.caseName); it was ignored. Send it only when the workspace is ready.
        """
      )
      return nil
    }
    return session
  }
}
