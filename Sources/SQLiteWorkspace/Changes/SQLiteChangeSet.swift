import ComposableWorkspace
import Foundation

/// A database change manifest: the rows a workspace's writable database inserted, updated and
/// deleted against its baseline, as the SQLite session extension's changeset.
///
/// ``changeset`` is the exact bytes that are published and applied (every value kind kept as
/// stored: NULLs, integers, reals, text in any script, blobs); ``changes`` is the same manifest
/// decoded, for reading and review. A change set is an ephemeral value of one attempt, never a
/// second database.
///
/// ```swift
/// let changes = try await client.captureChanges(database, baseline)
/// for change in changes.changes { print(change) }   // "update events (7)"
/// ```
public struct SQLiteChangeSet: WorkspaceChangeSet, Hashable {
  /// The session extension's changeset bytes (empty when nothing changed).
  public let changeset: Data
  /// The changeset decoded, in its own order (table by table).
  public let changes: [SQLiteRowChange]

  /// Decodes `changeset`; throws ``SQLiteWorkspaceError/malformedChangeset(_:)`` when the bytes
  /// are not a changeset.
  public init(changeset: Data) throws {
    self.changeset = changeset
    self.changes = try SQLiteChangesetReader.changes(in: changeset)
  }

  /// No change.
  public static let empty = SQLiteChangeSet(verified: Data(), changes: [])

  init(verified changeset: Data, changes: [SQLiteRowChange]) {
    self.changeset = changeset
    self.changes = changes
  }

  public var isEmpty: Bool { changes.isEmpty }

  /// The rows the manifest touches.
  public var rows: Set<SQLiteRowID> { Set(changes.map(\.row)) }
}
