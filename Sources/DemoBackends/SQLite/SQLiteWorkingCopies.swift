import ComposableWorkspace
import DemoSQLiteCatalogue
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

/// What the demo's application and host need of working copies kept as SQLite working
/// databases by `sqlite`: the workspace client, the removal of local data, and the write-through
/// of edits (so `sqlite3` shows each at once).
struct SQLiteWorkingCopies {
  let workspace: WorkspaceClient<EventWorkingCopy, EventChangeSet>
  let localData: LocalWorkspaceDataClient
  let keep: @Sendable (EventWorkingCopy) async throws -> Void

  init(_ sqlite: SQLiteWorkspaceClient) {
    workspace = .sqlite(sqlite)
    localData = LocalWorkspaceDataClient { id in try await sqlite.removeWorkingCopy(id) }
    keep = { source in
      guard let database = try sqlite.preparedDatabase(for: source.workspace) else { return }
      let events = Array(source.events)
      try await database.write { db in try EventTable.write(events, to: db) }
    }
  }
}
