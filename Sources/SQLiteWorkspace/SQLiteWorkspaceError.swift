import ComposableWorkspace

/// What the SQLite workspace refuses, and why. Every refusal leaves the databases as they were.
public enum SQLiteWorkspaceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A table has no primary key: its rows have no identity a change could name.
  case tableWithoutPrimaryKey(String)
  /// A row of a table has a NULL in its primary key: it has no identity a change could name.
  case nullPrimaryKey(String)
  /// The working database's schema is no longer its baseline's (a table added, dropped or
  /// altered); changes are rows, so the workspace cannot capture or carry them.
  case schemaChanged(table: String, detail: String)
  /// Bytes that should be a changeset are not one.
  case malformedChangeset(String)
  /// Local edits and the incoming revision changed the same rows: nothing was changed.
  case localEditsConflict([SQLiteConflict])
  /// A file that should be a workspace's database is not one (foreign, damaged, or not
  /// prepared by this integration).
  case notAWorkspaceDatabase(path: String, reason: String)
  /// The remote has no such branch.
  case branchNotFound(BranchName)
  /// The remote already has a branch of that name.
  case branchExists(BranchName)
  /// The remote has no such revision.
  case revisionNotFound(String)
  /// The remote has no such proposal.
  case proposalNotFound(String)
  /// A proposal with this idempotency key exists with other content (a different attempt
  /// reused the key).
  case proposalKeyReused(key: String, existing: String)
  /// The baseline a call was given is not the one installed in the workspace database.
  case baselineNotInstalled(given: WorkspaceBranchReference, installed: WorkspaceBranchReference)
  /// The workspace was removed (``SQLiteWorkspaceClient/removeWorkingCopy(_:)``); its database
  /// value no longer works.
  case removed(String)
  /// A file operation failed (disk full, permissions…); what it was writing is unchanged.
  case io(String)
  /// The proposal's changes do not apply to its target's current head: nothing was merged.
  case mergeConflict(proposal: String, conflicts: [SQLiteConflict])

  public var description: String {
    switch self {
    case .tableWithoutPrimaryKey(let table):
      "table \(table) has no primary key: the SQLite workspace tracks rows by their key, so "
        + "every table needs one"
    case .nullPrimaryKey(let table):
      "table \(table) has a row whose primary key has a NULL: the SQLite workspace tracks rows "
        + "by their key, so key columns must not be NULL"
    case .schemaChanged(let table, let detail):
      "the schema changed under the workspace: table \(table): \(detail)"
    case .malformedChangeset(let reason): "not a changeset: \(reason)"
    case .localEditsConflict(let conflicts):
      "local edits and the incoming revision changed the same rows (nothing was changed): "
        + conflicts.map(\.description).joined(separator: "; ")
    case .notAWorkspaceDatabase(let path, let reason):
      "\(path) is not a workspace database: \(reason)"
    case .branchNotFound(let branch): "the remote has no branch \(branch)"
    case .branchExists(let branch): "the remote already has a branch \(branch)"
    case .revisionNotFound(let revision): "the remote has no revision \(revision)"
    case .proposalNotFound(let id): "the remote has no proposal \(id)"
    case .proposalKeyReused(let key, let existing):
      "idempotency key \(key) already names proposal \(existing), with other content"
    case .baselineNotInstalled(let given, let installed):
      "the workspace database has \(installed) installed, not \(given)"
    case .io(let message): message
    case .removed(let path): "the workspace at \(path) was removed"
    case .mergeConflict(let proposal, let conflicts):
      "proposal \(proposal) does not apply to its target's head (nothing was merged): "
        + conflicts.map(\.description).joined(separator: "; ")
    }
  }
}
