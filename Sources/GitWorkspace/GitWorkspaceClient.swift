import ComposableAuthoring
import ComposableWorkspace
import Foundation
import WorkingCopySupport

/// A `WorkspaceClient` over any Git remote: workspaces are local worktrees prepared against an
/// exact remote branch head, proposals are content-addressed commits pushed create-only to
/// `refs/proposals/<idempotency key>`.
///
/// ```swift
/// let capability = AuthoringCapabilityProvider()
/// let git = GitWorkspaceClient(
///   remote: "https://git.example.com/catalogue.git",
///   root: applicationSupport.appendingPathComponent("workspaces"),
///   capability: capability
/// )
/// EventApplication()
///   .dependency(capability)   // Authoring publishes the validated capability into it
///   .dependency(git.client)
/// ```
///
/// Every operation first reads the capability in force (from the `AuthoringCapabilityProvider`,
/// or the closure it was given) and throws `WorkspaceAuthorizationError.invalidated` when there
/// is none; the capability's identity (through ``GitWorkspaceConfiguration/signature``) is the
/// author and committer of every commit. Operations on one workspace are serialized in the
/// process. ``removeWorkingCopy(_:)`` deletes a workspace's local data.
///
/// - **prepareSource** creates `<root>/<id>/` (see ``GitWorkingCopy``): fetches the default
///   branch, records its head as the installed baseline and checks it out into the worktree.
///   Reopening a prepared workspace is local (no fetch): the worktree's content is never
///   touched and the recorded baseline is answered unchanged, however far the remote moved.
/// - **captureChanges** snapshots the worktree into a temporary index (`GIT_INDEX_FILE`,
///   `git add -A`, `git write-tree`: tracked, modified, new not-ignored and deleted files) and
///   diffs that tree against the given baseline with rename detection. The user's index, HEAD
///   and files are never touched.
/// - **publishProposal** asks the remote for the target branch head and the proposal ref in
///   one round trip. An existing proposal ref with the same content and parent is the answer
///   to a retry; with other content it is ``GitWorkspaceError/proposalConflict(id:existingRevision:attemptedTree:)``.
///   A moved head throws `WorkspaceHeadMismatch` before anything is pushed. Otherwise one
///   commit (parent: the baseline; tree: the captured tree) is pushed, creating
///   `refs/proposals/<key>` only if it does not exist (`--force-with-lease=<ref>:`). Plain Git
///   cannot hold the branch during that push; how the head rule is kept, and exactly what is
///   guaranteed, is ``GitWorkspaceConfiguration/headGuard`` (``GitHeadGuard``): the client
///   looks again after the push and withdraws a proposal whose branch moved, or the remote's
///   ``GitHeadGuardHook`` refuses it. The commit of an attempt is remembered
///   (`refs/workspace/attempts/<key>`), so a retry pushes the same commit hash and the remote
///   answers "up to date".
/// - **refreshBaseline** / **selectBranch** fetch the branch and install its head: edits in the
///   worktree (modified, new, deleted files — staged or not, even local commits) are carried
///   onto the new baseline like `git checkout` does, HEAD moves (detached) to the new head and
///   the index is reset to it, so edits show as unstaged changes. When a file edited locally
///   also changed upstream, nothing is changed and
///   ``GitWorkspaceError/localEditsWouldBeOverwritten(_:message:)`` lists the paths.
/// - **listProposals** / **merge(proposalID:)** are for reviewers (and the demo).
public struct GitWorkspaceClient: WorkspaceIntegration {
  /// Where and how this client works.
  public let configuration: GitWorkspaceConfiguration
  let capability: @Sendable () async -> AuthoringContext?

  /// Creates a client that reads the capability Authoring validated from `capability` at every
  /// operation.
  public init(configuration: GitWorkspaceConfiguration, capability: AuthoringCapabilityProvider) {
    self.init(configuration: configuration, capability: { capability.current })
  }

  /// Creates a client for `remote`, keeping workspaces under `root`, that reads the capability
  /// Authoring validated from `capability` at every operation.
  public init(
    remote: String,
    root: URL,
    defaultBranch: BranchName = "main",
    capability: AuthoringCapabilityProvider
  ) {
    self.init(
      configuration: GitWorkspaceConfiguration(
        remote: remote, root: root, defaultBranch: defaultBranch),
      capability: capability
    )
  }

  /// Creates a client from a full configuration, reading the capability through `capability`:
  /// for an application that checks more than the provider before each operation (the demo
  /// also asks its server whether the grant is still honoured). The closure should answer from
  /// the `AuthoringCapabilityProvider` Authoring publishes into.
  public init(
    configuration: GitWorkspaceConfiguration,
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) {
    self.configuration = configuration
    self.capability = capability
  }

  /// Creates a client for `remote`, keeping workspaces under `root`, reading the capability
  /// through `capability` (see the closure-taking `init(configuration:capability:)`).
  public init(
    remote: String,
    root: URL,
    defaultBranch: BranchName = "main",
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) {
    self.init(
      configuration: GitWorkspaceConfiguration(
        remote: remote, root: root, defaultBranch: defaultBranch),
      capability: capability
    )
  }

  /// The working copy that workspace `id` uses (whether or not it was prepared yet).
  public func workingCopy(for id: WorkspaceID) -> GitWorkingCopy {
    let directory = configuration.root.standardizedFileURL
      .appendingPathComponent(id.directoryName, isDirectory: true)
    return GitWorkingCopy(
      worktree: directory.appendingPathComponent("worktree", isDirectory: true),
      reference: directory.appendingPathComponent("reference.git", isDirectory: true),
      remote: configuration.remote
    )
  }

  /// Creates or reopens workspace `id` and answers its coherent session.
  public func prepareSource(_ id: WorkspaceID) async throws -> WorkspaceSession<GitWorkingCopy> {
    let operations = try await authorized()
    let copy = workingCopy(for: id)
    return try await serialized(copy) { try await operations.prepare(copy) }
  }

  /// Fetches `baseline.branch` and installs its current head; answers the same branch.
  public func refreshBaseline(
    _ source: GitWorkingCopy, _ baseline: WorkspaceBranchReference
  ) async throws -> WorkspaceBranchReference {
    let operations = try await authorized()
    return try await serialized(source) {
      try await operations.install(baseline.branch, in: source)
    }
  }

  /// Fetches `branch` and installs its current head; answers exactly `branch`.
  public func selectBranch(
    _ source: GitWorkingCopy, _ branch: BranchName
  ) async throws -> WorkspaceBranchReference {
    let operations = try await authorized()
    return try await serialized(source) { try await operations.install(branch, in: source) }
  }

  /// Compares the worktree with `baseline` without touching the user's index or HEAD.
  public func captureChanges(
    _ source: GitWorkingCopy, _ baseline: WorkspaceBranchReference
  ) async throws -> GitChangeSet {
    let operations = try await authorized()
    return try await serialized(source) { try await operations.capture(source, against: baseline) }
  }

  /// Creates (or, for a retry of the same attempt, finds) the proposal of `changes`.
  public func publishProposal(
    _ source: GitWorkingCopy,
    _ baseline: WorkspaceBranchReference,
    _ changes: GitChangeSet,
    _ request: ProposalRequest
  ) async throws -> ProposalRecord {
    let operations = try await authorized()
    let recheck = { @Sendable () async throws -> Void in _ = try await self.authorized() }
    return try await serialized(source) {
      try await operations.publish(
        changes, of: source, against: baseline, request: request, beforePush: recheck
      )
    }
  }

  /// Deletes workspace `id`'s local data — `<root>/<id>/`: the worktree with its edits, the
  /// reference repository with the recorded baseline and publication attempts. This is the
  /// application's "remove local data" (Workspace never deletes anything); it touches nothing
  /// remote, so it needs no capability. Serialized with the workspace's other operations.
  /// Removing a workspace that was never prepared does nothing.
  public func removeWorkingCopy(_ id: WorkspaceID) async throws {
    let copy = workingCopy(for: id)
    let directory = copy.worktree.deletingLastPathComponent()
    try await serialized(copy) {
      guard FileManager.default.fileExists(atPath: directory.path) else { return }
      try FileManager.default.removeItem(at: directory)
    }
  }

  /// Every proposal on the remote, oldest commit first, with whether its target contains it.
  public func listProposals() async throws -> [GitProposal] {
    let operations = try await authorized()
    let review = reviewRepository
    return try await SerialGate.shared.run(review.path) {
      try await operations.listProposals(in: review)
    }
  }

  /// Merges proposal `proposalID` (a record id, `refs/proposals/<key>`, or the bare key) into
  /// its target branch on the remote — a fast-forward when the branch has not moved, else a
  /// merge commit — and answers the branch's new head. Merging a merged proposal answers the
  /// current head and changes nothing.
  public func merge(proposalID: String) async throws -> WorkspaceBranchReference {
    let operations = try await authorized()
    let review = reviewRepository
    return try await SerialGate.shared.run(review.path) {
      try await operations.merge(proposalID, in: review)
    }
  }

  /// The bare repository reviewers' operations fetch into (`<root>/.proposals.git`).
  var reviewRepository: URL {
    configuration.root.standardizedFileURL.appendingPathComponent(
      ".proposals.git", isDirectory: true)
  }

  /// The operations bound to the current capability's identity, or
  /// `WorkspaceAuthorizationError.invalidated`.
  func authorized() async throws -> GitOperations {
    guard let context = await capability() else { throw WorkspaceAuthorizationError.invalidated }
    try Task.checkCancellation()
    return GitOperations(
      configuration: configuration,
      git: configuration.git.withIdentity(configuration.signature(context))
    )
  }

  private func serialized<T: Sendable>(
    _ copy: GitWorkingCopy, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await SerialGate.shared.run(copy.reference.standardizedFileURL.path, operation)
  }
}
