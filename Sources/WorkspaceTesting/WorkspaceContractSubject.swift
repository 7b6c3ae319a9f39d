import ComposableWorkspace

/// What the conformance kit needs to exercise one `WorkspaceClient`: the client, a workspace
/// to prepare, a second existing branch, and hooks that act as the user, as another writer of
/// the remote, and as the app revoking the capability.
///
/// Build a fresh subject (fresh remote, fresh local root, valid capability) each time the kit
/// asks: every rule is checked on its own subject.
///
/// ```swift
/// await assertWorkspaceContract {
///   let remote = try await TestRemote.make()          // your fixture
///   let capability = LockIsolated<AuthoringContext?>(.editor)
///   return WorkspaceContractSubject(
///     client: .git(remote: remote.url, root: remote.root, capability: { capability.current }),
///     workspaceID: "catalogue",
///     otherBranch: "published",
///     edit: { source in
///       try remote.appendLine(to: source.worktree.appendingPathComponent("a.txt"))
///       return source
///     },
///     moveRemoteHead: { branch in try await remote.commitElsewhere(on: branch) },
///     revokeAuthorization: { capability.setValue(nil) },
///     proposalIDs: { try await remote.proposalRefs() }
///   )
/// }
/// ```
public struct WorkspaceContractSubject<Source: Sendable, ChangeSet: WorkspaceChangeSet>: Sendable {
  /// The client under test.
  public var client: WorkspaceClient<Source, ChangeSet>
  /// The workspace the kit prepares.
  public var workspaceID: WorkspaceID
  /// A second workspace, prepared beside the first to check that calls work on the source
  /// they are given.
  public var secondWorkspaceID: WorkspaceID
  /// An existing branch other than the one `prepareSource` installs.
  public var otherBranch: BranchName
  /// Makes a real edit in the writable content of `source` (as the user would) and answers the
  /// source to use from then on: the same value for a handle (a worktree, a database), the
  /// edited value for a value-type source. It must not conflict with what ``moveRemoteHead``
  /// changes.
  public var edit: @Sendable (Source) async throws -> Source
  /// Someone else advances `branch` on the remote by one new revision.
  public var moveRemoteHead: @Sendable (BranchName) async throws -> Void
  /// Makes the capability the client reads invalid from now on.
  public var revokeAuthorization: @Sendable () async -> Void
  /// The ids of the proposal records the remote holds, spelled as `ProposalRecord.id`; `nil`
  /// when the remote cannot list them (record counts are then not checked).
  public var proposalIDs: (@Sendable () async throws -> Set<String>)?
  /// Whether two sources are the same resource; `nil` when `Source` cannot be compared
  /// (the kit then checks ownership only through edits and captures).
  public var isSameSource: (@Sendable (Source, Source) -> Bool)?

  public init(
    client: WorkspaceClient<Source, ChangeSet>,
    workspaceID: WorkspaceID,
    secondWorkspaceID: WorkspaceID? = nil,
    otherBranch: BranchName,
    edit: @escaping @Sendable (Source) async throws -> Source,
    moveRemoteHead: @escaping @Sendable (BranchName) async throws -> Void,
    revokeAuthorization: @escaping @Sendable () async -> Void,
    proposalIDs: (@Sendable () async throws -> Set<String>)? = nil,
    isSameSource: (@Sendable (Source, Source) -> Bool)? = nil
  ) {
    self.client = client
    self.workspaceID = workspaceID
    self.secondWorkspaceID = secondWorkspaceID ?? WorkspaceID("\(workspaceID.rawValue)-second")
    self.otherBranch = otherBranch
    self.edit = edit
    self.moveRemoteHead = moveRemoteHead
    self.revokeAuthorization = revokeAuthorization
    self.proposalIDs = proposalIDs
    self.isSameSource = isSameSource
  }
}

extension WorkspaceContractSubject where Source: Equatable {
  /// The same subject, comparing sources with `==`.
  public func comparingSources() -> Self {
    var copy = self
    copy.isSameSource = { $0 == $1 }
    return copy
  }
}
