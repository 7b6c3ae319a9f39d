import ComposableCore
import ComposableWorkspace
import DemoSQLiteCatalogue
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

extension WorkspaceClient where Source == EventWorkingCopy, ChangeSet == EventChangeSet {
  /// The demo's workspace client on a SQLite remote: an adapter from the application's
  /// `EventWorkingCopy`/`EventChangeSet` to ``SQLiteWorkspaceClient``, which does the database
  /// work.
  ///
  /// Workspace `id` is the SQLite workspace `id` (its working database holds the catalogue in
  /// ``EventTable``). Every call first writes the `EventWorkingCopy` it is given into the
  /// working database (only the rows that differ, in one transaction), then delegates, then
  /// answers the working database's events:
  /// - **prepareSource** prepares or reopens the workspace (a reopened one keeps its edits and
  ///   its baseline).
  /// - **refreshBaseline** installs the branch's head, carrying the edited rows over it.
  /// - **selectBranch** is refused with `DemoWorkspaceError.uncommittedEdits` while the events
  ///   differ from the installed baseline (the demo's rule); else the branch is installed.
  /// - **captureChanges** captures the database's changeset (so a database problem is told),
  ///   and answers the baseline reader's events against the working events.
  /// - **publishProposal** captures again and publishes that changeset, so the proposal holds
  ///   exactly these events; when they no longer match `changes`, nothing is published.
  static func sqlite(_ sqlite: SQLiteWorkspaceClient) -> Self {
    /// Writes `source` into its working database.
    @Sendable func checkOut(_ source: EventWorkingCopy) async throws -> SQLiteWorkspaceDatabase {
      guard let database = try sqlite.preparedDatabase(for: source.workspace) else {
        throw SQLiteEventWorkspaceError.notPrepared(source.workspace)
      }
      let events = Array(source.events)
      try await database.write { db in try EventTable.write(events, to: db) }
      return database
    }

    /// The session of `database`: its working events at `baseline`.
    @Sendable func session(
      _ id: WorkspaceID, _ database: SQLiteWorkspaceDatabase, _ baseline: WorkspaceBranchReference
    ) async throws -> WorkspaceSession<EventWorkingCopy> {
      let events = try await database.read { db in try EventTable.events(in: db) }
      return WorkspaceSession(
        source: EventWorkingCopy(workspace: id, events: IdentifiedArray(events)),
        baseline: baseline)
    }

    /// The baseline reader's events against the working events.
    @Sendable func changes(
      _ source: EventWorkingCopy, _ database: SQLiteWorkspaceDatabase
    ) async throws -> EventChangeSet {
      let base = try await database.readReference { db in try EventTable.events(in: db) }
      return EventChangeSet.between(baseline: base, working: Array(source.events))
    }

    return Self(
      prepareSource: { id in
        let prepared = try await sqlite.prepareSource(id)
        return try await session(id, prepared.source, prepared.baseline)
      },
      refreshBaseline: { source, baseline in
        let database = try await checkOut(source)
        let installed = try await sqlite.refreshBaseline(database, baseline)
        return try await session(source.workspace, database, installed)
      },
      selectBranch: { source, branch in
        let database = try await checkOut(source)
        guard try await changes(source, database).isEmpty else {
          throw DemoWorkspaceError.uncommittedEdits
        }
        let installed = try await sqlite.selectBranch(database, branch)
        return try await session(source.workspace, database, installed)
      },
      captureChanges: { source, baseline in
        let database = try await checkOut(source)
        _ = try await sqlite.captureChanges(database, baseline)
        return try await changes(source, database)
      },
      publishProposal: { source, baseline, expected, request in
        let database = try await checkOut(source)
        let captured = try await sqlite.captureChanges(database, baseline)
        guard try await changes(source, database) == expected else {
          throw SQLiteEventWorkspaceError.changedSinceCapture
        }
        return try await sqlite.publishProposal(database, baseline, captured, request)
      }
    )
  }
}

/// Why the SQLite-backed demo workspace refused an operation.
enum SQLiteEventWorkspaceError: Error, Equatable, Sendable, LocalizedError,
  CustomStringConvertible
{
  /// The session names a workspace whose database is not there (it was removed).
  case notPrepared(WorkspaceID)
  /// The change set given to publish is not what the working copy changes now.
  case changedSinceCapture

  var description: String {
    switch self {
    case .notPrepared(let id):
      "the working database of workspace \(id) is missing; its edits cannot be used"
    case .changedSinceCapture:
      "the working copy changed since its changes were captured; nothing was proposed"
    }
  }

  var errorDescription: String? { description }
}
