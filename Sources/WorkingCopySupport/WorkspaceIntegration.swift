import ComposableWorkspace

/// A live integration that implements the five workspace operations as methods; ``client``
/// assembles the `WorkspaceClient` an application installs.
///
/// Refresh and selection answer the installed baseline only: the integration works on the
/// source it was given (a working copy on disk), so the session it answers is that same source
/// with the new baseline — the integration contract's "every later call receives that exact
/// value", kept by construction.
///
/// ```swift
/// extension MyIntegration: WorkspaceIntegration { … the five methods … }
/// EventApplication().dependency(MyIntegration(…).client)
/// ```
public protocol WorkspaceIntegration: Sendable {
  /// The editable source a prepared workspace works on (a working copy's handle).
  associatedtype Source: Sendable
  /// What `captureChanges` answers and `publishProposal` sends.
  associatedtype ChangeSet: WorkspaceChangeSet

  /// Creates or reopens workspace `id` and answers its coherent session.
  func prepareSource(_ id: WorkspaceID) async throws -> WorkspaceSession<Source>
  /// Installs the current head of `baseline.branch` in `source`; answers that same branch.
  func refreshBaseline(
    _ source: Source, _ baseline: WorkspaceBranchReference
  ) async throws -> WorkspaceBranchReference
  /// Installs the current head of `branch` in `source`; answers exactly `branch`.
  func selectBranch(_ source: Source, _ branch: BranchName) async throws
    -> WorkspaceBranchReference
  /// The changes of `source` against `baseline`.
  func captureChanges(
    _ source: Source, _ baseline: WorkspaceBranchReference
  ) async throws -> ChangeSet
  /// Creates (or, for a retry of the same attempt, finds) the proposal of `changes`.
  func publishProposal(
    _ source: Source, _ baseline: WorkspaceBranchReference, _ changes: ChangeSet,
    _ request: ProposalRequest
  ) async throws -> ProposalRecord
}

extension WorkspaceIntegration {
  /// The `WorkspaceClient` to install with `.dependency(…)`.
  public var client: WorkspaceClient<Source, ChangeSet> {
    WorkspaceClient(
      prepareSource: { id in try await self.prepareSource(id) },
      refreshBaseline: { source, baseline in
        WorkspaceSession(source: source, baseline: try await self.refreshBaseline(source, baseline))
      },
      selectBranch: { source, branch in
        WorkspaceSession(source: source, baseline: try await self.selectBranch(source, branch))
      },
      captureChanges: { source, baseline in try await self.captureChanges(source, baseline) },
      publishProposal: { source, baseline, changes, request in
        try await self.publishProposal(source, baseline, changes, request)
      }
    )
  }
}
