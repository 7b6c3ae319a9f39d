import ComposableAuthoring
import ComposableWorkspace
import Foundation
import WorkingCopySupport

/// A `WorkspaceClient` for database-backed apps: each workspace is a SQLite database prepared
/// against an exact revision of a branch on a ``SQLiteWorkspaceRemote``, its changes are a
/// changeset, and proposals are changesets on the remote.
///
/// ```swift
/// let capability = AuthoringCapabilityProvider()
/// let sqlite = SQLiteWorkspaceClient(
///   remote: try SQLiteRemoteStore(path: remotePath),
///   root: applicationSupport.appendingPathComponent("workspaces"),
///   capability: capability
/// )
/// EventApplication()
///   .dependency(capability)
///   .dependency(sqlite.client)   // WorkspaceClient<SQLiteWorkspaceDatabase, SQLiteChangeSet>
/// ```
///
/// Every operation first reads the capability in force and throws
/// `WorkspaceAuthorizationError.invalidated` when there is none; its identity is the author of
/// every proposal. Operations on one workspace run one at a time in the process.
///
/// - **prepareSource** creates `<root>/<id>/` (see ``SQLiteWorkspaceDatabase``) from the
///   default branch's head, or reopens it without asking the remote: the working database is
///   never replaced and its recorded baseline is answered as it is.
/// - **captureChanges** diffs the working database against the installed baseline with the
///   session extension (``SQLiteChangeSet``); a table without a primary key, or a schema that
///   changed under the workspace, is refused with ``SQLiteWorkspaceError``.
/// - **publishProposal** sends the changeset under the attempt's idempotency key; the remote
///   answers the same record to a retry and throws `WorkspaceHeadMismatch` when the target
///   moved.
/// - **refreshBaseline** / **selectBranch** install the branch's current head and carry the
///   local edits over it in one transaction; when a row was changed both locally and on the
///   branch, nothing changes and ``SQLiteWorkspaceError/localEditsConflict(_:)`` names the rows.
public struct SQLiteWorkspaceClient: WorkspaceIntegration {
  /// Where revisions and proposals live.
  public let remote: any SQLiteWorkspaceRemote
  /// The folder holding one folder per workspace.
  public let root: URL
  /// The branch a new workspace is prepared on.
  public let defaultBranch: BranchName
  let capability: @Sendable () async -> AuthoringContext?

  /// Creates a client that reads the capability Authoring validated from `capability` at every
  /// operation.
  public init(
    remote: any SQLiteWorkspaceRemote, root: URL, defaultBranch: BranchName = "main",
    capability: AuthoringCapabilityProvider
  ) {
    self.init(remote: remote, root: root, defaultBranch: defaultBranch) { capability.current }
  }

  /// Creates a client that reads the capability through `capability` (an app that checks more
  /// than the provider before each operation).
  public init(
    remote: any SQLiteWorkspaceRemote, root: URL, defaultBranch: BranchName = "main",
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) {
    self.remote = remote
    self.root = root
    self.defaultBranch = defaultBranch
    self.capability = capability
  }

  /// The folder of workspace `id` (whether or not it was prepared yet).
  public func directory(for id: WorkspaceID) -> URL {
    root.standardizedFileURL.appendingPathComponent(id.directoryName, isDirectory: true)
  }

  /// The database of workspace `id` if it was prepared (reopened from disk when not open
  /// yet), or `nil`. Local: it asks nothing of the remote and needs no capability.
  public func preparedDatabase(for id: WorkspaceID) throws -> SQLiteWorkspaceDatabase? {
    try SQLiteWorkspaceDatabase.existing(in: directory(for: id))
  }

  public func prepareSource(
    _ id: WorkspaceID
  ) async throws -> WorkspaceSession<SQLiteWorkspaceDatabase> {
    _ = try await authorized()
    let directory = directory(for: id)
    let remote = remote
    let branch = defaultBranch
    return try await serialized(directory) {
      if let database = try SQLiteWorkspaceDatabase.existing(in: directory) {
        return WorkspaceSession(source: database, baseline: try await database.baseline)
      }
      let head = try await remote.head(of: branch)
      let image = try await remote.image(of: head.revision)
      let database = try SQLiteWorkspaceDatabase.create(in: directory, image: image, baseline: head)
      return WorkspaceSession(source: database, baseline: head)
    }
  }

  public func refreshBaseline(
    _ source: SQLiteWorkspaceDatabase, _ baseline: WorkspaceBranchReference
  ) async throws -> WorkspaceBranchReference {
    _ = try await authorized()
    return try await install(baseline.branch, in: source)
  }

  public func selectBranch(
    _ source: SQLiteWorkspaceDatabase, _ branch: BranchName
  ) async throws -> WorkspaceBranchReference {
    _ = try await authorized()
    return try await install(branch, in: source)
  }

  public func captureChanges(
    _ source: SQLiteWorkspaceDatabase, _ baseline: WorkspaceBranchReference
  ) async throws -> SQLiteChangeSet {
    _ = try await authorized()
    return try await serialized(source.directory) { try await source.capture(against: baseline) }
  }

  public func publishProposal(
    _ source: SQLiteWorkspaceDatabase, _ baseline: WorkspaceBranchReference,
    _ changes: SQLiteChangeSet, _ request: ProposalRequest
  ) async throws -> ProposalRecord {
    let context = try await authorized()
    return try await remote.propose(
      SQLiteProposalSubmission(
        idempotencyKey: request.idempotencyKey, title: request.title, summary: request.summary,
        author: context.identity.rawValue, target: baseline, changeset: changes.changeset))
  }

  /// Deletes workspace `id`'s local data — `<root>/<id>/`: the working database with its edits
  /// and its baseline. The application's "remove local data" (Workspace never deletes
  /// anything); it touches nothing remote, so it needs no capability. The workspace's database
  /// value refuses every later call. Removing a workspace never prepared does nothing.
  public func removeWorkingCopy(_ id: WorkspaceID) async throws {
    let directory = directory(for: id)
    try await serialized(directory) { try SQLiteWorkspaceDatabase.remove(in: directory) }
  }

  /// Every proposal on the remote, oldest first.
  public func proposals() async throws -> [SQLiteProposal] {
    _ = try await authorized()
    return try await remote.proposals()
  }

  /// Merges proposal `id` into its target branch on the remote; answers the branch's new head.
  public func merge(proposalID id: String) async throws -> WorkspaceBranchReference {
    _ = try await authorized()
    return try await remote.merge(proposalID: id)
  }

  /// Installs the head of `branch` in `source`, carrying its edits over.
  private func install(
    _ branch: BranchName, in source: SQLiteWorkspaceDatabase
  ) async throws -> WorkspaceBranchReference {
    let remote = remote
    return try await serialized(source.directory) {
      let head = try await remote.head(of: branch)
      let installed = try await source.baseline
      let image =
        installed.revision == head.revision ? nil : try await remote.image(of: head.revision)
      try await source.install(image, as: head)
      return head
    }
  }

  /// The capability in force, or `WorkspaceAuthorizationError.invalidated`.
  private func authorized() async throws -> AuthoringContext {
    guard let context = await capability() else { throw WorkspaceAuthorizationError.invalidated }
    try Task.checkCancellation()
    return context
  }

  private func serialized<T: Sendable>(
    _ directory: URL, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await SerialGate.shared.run(directory.path, operation)
  }
}
