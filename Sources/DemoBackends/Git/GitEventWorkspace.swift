import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import Foundation
import GitWorkspace
import WorkspaceDemoFeature

extension WorkspaceClient where Source == EventWorkingCopy, ChangeSet == EventChangeSet {
  /// The demo's workspace client on a Git remote: an adapter from the application's
  /// `EventWorkingCopy`/`EventChangeSet` to ``GitWorkspaceClient``, which does the Git work.
  ///
  /// The working copy of workspace `id` is `git.workingCopy(for: id)`; its worktree holds the
  /// catalogue as ``EventFiles`` (`events/<id>.json`). Every call first checks `capability`
  /// (`WorkspaceAuthorizationError.invalidated` when there is none), then writes the
  /// `EventWorkingCopy` it is given into the worktree (only the files that differ), then
  /// delegates:
  /// - **prepareSource**: the Git client prepares or reopens the worktree; the source is the
  ///   worktree's events (a reopened worktree keeps its edits and its baseline).
  /// - **refreshBaseline**: the Git client installs the branch's head and carries the edited
  ///   files onto it; the source is the worktree's events afterwards.
  /// - **selectBranch**: refused with `DemoWorkspaceError.uncommittedEdits` while the events
  ///   differ from the installed baseline (the demo's rule); else the Git client installs it.
  /// - **captureChanges**: the Git client captures the worktree against the baseline (a tree
  ///   object); the `EventChangeSet` is the baseline commit's events (read from the reference
  ///   repository) against the working events.
  /// - **publishProposal**: captures again and publishes the Git client's own change set, so
  ///   the proposal commit holds exactly these events; answers the Git client's record
  ///   (`refs/proposals/<key>`, the commit hash, the baseline). When the events no longer
  ///   match `changes`, nothing is published.
  ///
  /// Writing the events into the worktree happens before the Git client's own per-workspace
  /// serialization, so two operations on one workspace must not run at once; the application
  /// (and the CLI, which awaits every command) never does that.
  static func git(
    _ git: GitWorkspaceClient,
    reader: EventReader,
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) -> Self {
    /// Checks the capability and writes `source` into its worktree.
    @Sendable func checkOut(_ source: EventWorkingCopy) async throws -> GitWorkingCopy {
      guard await capability() != nil else { throw WorkspaceAuthorizationError.invalidated }
      let copy = git.workingCopy(for: source.workspace)
      guard
        FileManager.default.fileExists(atPath: copy.worktree.appendingPathComponent(".git").path)
      else {
        throw GitEventWorkspaceError.missingWorktree(source.workspace, path: copy.worktree.path)
      }
      try EventFiles.write(source.events, to: copy.worktree)
      return copy
    }

    /// The session of workspace `id`: the worktree's events at `baseline`.
    @Sendable func session(
      _ id: WorkspaceID, _ copy: GitWorkingCopy, _ baseline: WorkspaceBranchReference
    ) throws -> WorkspaceSession<EventWorkingCopy> {
      let events = try EventFiles.events(in: copy.worktree)
      return WorkspaceSession(
        source: EventWorkingCopy(workspace: id, events: IdentifiedArray(events)), baseline: baseline
      )
    }

    /// What the working events change against the commit the Git change set was captured
    /// against.
    @Sendable func changes(
      _ source: EventWorkingCopy, _ captured: GitChangeSet, _ copy: GitWorkingCopy
    ) async throws -> EventChangeSet {
      let base = try await reader.events(at: captured.baseline, in: copy.reference)
      return EventChangeSet.between(baseline: base, working: Array(source.events))
    }

    return Self(
      prepareSource: { id in
        guard await capability() != nil else { throw WorkspaceAuthorizationError.invalidated }
        let prepared = try await git.prepareSource(id)
        return try session(id, prepared.source, prepared.baseline)
      },
      refreshBaseline: { source, baseline in
        let copy = try await checkOut(source)
        let installed = try await git.refreshBaseline(copy, baseline)
        return try session(source.workspace, copy, installed)
      },
      selectBranch: { source, branch in
        let copy = try await checkOut(source)
        // The worktree's HEAD is the installed baseline (the Git client keeps it there).
        let base = try await reader.events(at: "HEAD", in: copy.worktree)
        guard EventChangeSet.between(baseline: base, working: Array(source.events)).isEmpty else {
          throw DemoWorkspaceError.uncommittedEdits
        }
        let installed = try await git.selectBranch(copy, branch)
        return try session(source.workspace, copy, installed)
      },
      captureChanges: { source, baseline in
        let copy = try await checkOut(source)
        let captured = try await git.captureChanges(copy, baseline)
        return try await changes(source, captured, copy)
      },
      publishProposal: { source, baseline, expected, request in
        let copy = try await checkOut(source)
        let captured = try await git.captureChanges(copy, baseline)
        guard try await changes(source, captured, copy) == expected else {
          throw GitEventWorkspaceError.changedSinceCapture
        }
        return try await git.publishProposal(copy, baseline, captured, request)
      }
    )
  }
}

/// Why the Git-backed demo workspace refused an operation.
enum GitEventWorkspaceError: Error, Equatable, Sendable, LocalizedError, CustomStringConvertible {
  /// The session names a worktree that is not there (its directory was removed).
  case missingWorktree(WorkspaceID, path: String)
  /// The change set given to publish is not what the working copy changes now.
  case changedSinceCapture

  var description: String {
    switch self {
    case .missingWorktree(let id, let path):
      "the worktree of workspace \(id) is missing (\(path)); its edits cannot be used"
    case .changedSinceCapture:
      "the working copy changed since its changes were captured; nothing was proposed"
    }
  }

  var errorDescription: String? { description }
}
