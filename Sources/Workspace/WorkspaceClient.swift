import ComposableCore

/// The external operations of a workspace, filled in by an integrator (Git, a database, an HTTP
/// service, the in-memory demo system).
///
/// The app installs its concrete client once, at the composition root, with the type-keyed
/// dependency modifier; ``Workspace`` reads it with
/// `@Dependency(WorkspaceClient<Source, ChangeSet>.self)`:
///
/// ```swift
/// EventApplication()
///   .dependency(authoringClient)
///   .dependency(workspaceClient)   // a WorkspaceClient<EventSource, EventPatch>
/// ```
///
/// Both `liveValue` and `testValue` are unimplemented: every endpoint reports an issue naming
/// itself and throws, because only the app knows the concrete integration. Tests replace just
/// the endpoints a story uses.
///
/// ## Integration contract
///
/// Every implementation must:
/// - **prepareSource** returns a complete, coherent ``WorkspaceSession`` (the source and the
///   exact baseline it was prepared against) and never replaces writable content. It must not
///   silently advance an existing baseline.
/// - Workspace owns the returned source: **every later call receives that exact value**, and
///   the client works on it (never locates or attaches another resource).
/// - **captureChanges** captures against the baseline it is given: the session's installed
///   baseline.
/// - **publishProposal** is retry-safe: called again with the same ``ProposalRequest`` (same
///   idempotency key) it creates no second record and answers the same one. It returns the exact
///   proposal identity, content revision and target revision (``ProposalRecord``), whose target
///   is the baseline it was given.
/// - Once the remote record exists, **publishProposal reports it without installing it**: the
///   baseline and the source's reference do not change. Projection lag after that point is the
///   integration's business (a delivery receipt), never an error.
/// - **refreshBaseline** keeps the branch identity: it answers the same branch, possibly at a
///   newer revision.
/// - **selectBranch** returns exactly the requested branch, and only after that branch has been
///   installed coherently in the source.
/// - **Authorization is checked at every external operation**: throw
///   ``WorkspaceAuthorizationError/invalidated`` when the current capability is no longer valid.
/// - **publishProposal throws ``WorkspaceHeadMismatch``** (with the expected and actual heads)
///   before creating a record when its target moved.
/// - Errors worth retrying conform to ``WorkspaceTransientError``; ``Workspace`` retries only
///   `publishProposal`, and only on those.
///
/// Output that breaks these rules (another branch than asked, a refresh on another branch, a
/// record whose target is not the baseline) is a protocol error: ``Workspace`` reports it as an
/// issue and does not install it. Endpoints should honour task cancellation; when one does not,
/// its late answer is dropped anyway.
public struct WorkspaceClient<Source: Sendable, ChangeSet: WorkspaceChangeSet>: Sendable,
  DependencyKey
{
  /// Creates or opens the coherent session of a workspace.
  public var prepareSource: @Sendable (_ id: WorkspaceID) async throws -> WorkspaceSession<Source>

  /// Installs the current revision of `baseline.branch` and answers the coherent session: the
  /// same branch at its current revision, and the source as it now is (a handle — a worktree,
  /// a database — answers itself; a value-type source answers its updated value).
  public var refreshBaseline:
    @Sendable (
      _ source: Source, _ baseline: WorkspaceBranchReference
    ) async throws -> WorkspaceSession<Source>

  /// Installs `branch` coherently and answers the session: exactly the requested branch at its
  /// exact revision, and the source as it now is.
  public var selectBranch:
    @Sendable (
      _ source: Source, _ branch: BranchName
    ) async throws -> WorkspaceSession<Source>

  /// Compares the writable content of `source` with `baseline` (the installed baseline).
  public var captureChanges:
    @Sendable (
      _ source: Source, _ baseline: WorkspaceBranchReference
    ) async throws -> ChangeSet

  /// Creates one remote proposal of `changes` against `baseline`, idempotently by
  /// `request.idempotencyKey`, and answers its record (whose target must be `baseline`).
  public var publishProposal:
    @Sendable (
      _ source: Source, _ baseline: WorkspaceBranchReference, _ changes: ChangeSet,
      _ request: ProposalRequest
    ) async throws -> ProposalRecord

  public init(
    prepareSource: @escaping @Sendable (WorkspaceID) async throws -> WorkspaceSession<Source>,
    refreshBaseline:
      @escaping @Sendable (Source, WorkspaceBranchReference) async throws -> WorkspaceSession<
        Source
      >,
    selectBranch: @escaping @Sendable (Source, BranchName) async throws -> WorkspaceSession<Source>,
    captureChanges:
      @escaping @Sendable (Source, WorkspaceBranchReference) async throws -> ChangeSet,
    publishProposal:
      @escaping @Sendable (Source, WorkspaceBranchReference, ChangeSet, ProposalRequest)
      async throws -> ProposalRecord
  ) {
    self.prepareSource = prepareSource
    self.refreshBaseline = refreshBaseline
    self.selectBranch = selectBranch
    self.captureChanges = captureChanges
    self.publishProposal = publishProposal
  }

  /// Every endpoint reports an issue naming itself and throws
  /// ``/ComposableCore/UnimplementedEndpoint``.
  public static var unimplemented: Self {
    Self(
      prepareSource: ComposableCore.unimplemented("WorkspaceClient.prepareSource"),
      refreshBaseline: ComposableCore.unimplemented("WorkspaceClient.refreshBaseline"),
      selectBranch: ComposableCore.unimplemented("WorkspaceClient.selectBranch"),
      captureChanges: ComposableCore.unimplemented("WorkspaceClient.captureChanges"),
      publishProposal: ComposableCore.unimplemented("WorkspaceClient.publishProposal")
    )
  }

  /// Unimplemented: the app must install its concrete client with `.dependency(client)`.
  public static var liveValue: Self { unimplemented }

  /// Unimplemented: each test overrides the endpoints its story uses.
  public static var testValue: Self { unimplemented }
}
