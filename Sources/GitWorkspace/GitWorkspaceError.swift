import ComposableWorkspace
import Foundation

/// A definite answer of the Git integration that is not a git command failure: the request
/// cannot be carried out as asked. Each case names what was asked and, where git gave one,
/// git's own message.
public enum GitWorkspaceError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
  /// The remote has no branch of that name.
  case branchNotFound(BranchName, remote: String)
  /// The name is not a valid Git branch name.
  case invalidBranchName(BranchName)
  /// The remote URL is empty or looks like a command-line option.
  case invalidRemote(String)
  /// The workspace directory holds something that is not this workspace's worktree; it was
  /// left untouched.
  case notAWorkspace(path: String, reason: String)
  /// The working copy was prepared for another remote than this client's.
  case remoteMismatch(expected: String, found: String)
  /// The baseline revision is not known to the local reference repository.
  case unknownRevision(WorkspaceBranchReference)
  /// Installing `branch` would overwrite local edits (git's message lists the paths); nothing
  /// was changed.
  case localEditsWouldBeOverwritten(BranchName, message: String)
  /// The change set was captured against another baseline than the one given to publish.
  case changeSetBaselineMismatch(changeSet: String, baseline: WorkspaceBranchReference)
  /// An empty change set was given to `publishProposal`; nothing was published.
  case emptyChangeSet
  /// A proposal with this idempotency key already exists with other content or another
  /// target: the same key was used for a different attempt.
  case proposalConflict(id: String, existingRevision: String, attemptedTree: String)
  /// No proposal of that id exists on the remote.
  case proposalNotFound(String)
  /// The proposal's commit does not say which branch it targets.
  case proposalWithoutTarget(String)
  /// The proposal cannot be merged into its target without conflicts (git's message).
  case mergeConflict(proposal: String, message: String)
  /// The target branch moved while the proposal was being created (so it may have landed on a
  /// moved head) and the proposal ref could not be withdrawn: it exists as `revision`.
  case headMovedDuringPublication(
    id: String, revision: String, expected: WorkspaceBranchReference,
    actual: WorkspaceBranchReference?)

  public var description: String {
    switch self {
    case .branchNotFound(let branch, let remote):
      "The remote \(remote) has no branch \(branch)."
    case .invalidBranchName(let branch):
      "\"\(branch)\" is not a valid Git branch name."
    case .invalidRemote(let remote):
      "\"\(remote)\" is not a usable Git remote."
    case .notAWorkspace(let path, let reason):
      "\(path) is not a workspace worktree (\(reason)); it was left untouched."
    case .remoteMismatch(let expected, let found):
      "The working copy belongs to the remote \(found), not \(expected)."
    case .unknownRevision(let reference):
      "The baseline \(reference) is not in the local reference repository."
    case .localEditsWouldBeOverwritten(let branch, let message):
      "Installing \(branch) would overwrite local edits; nothing was changed. \(message)"
    case .changeSetBaselineMismatch(let changeSet, let baseline):
      "The change set was captured against \(changeSet), not against the baseline \(baseline)."
    case .emptyChangeSet:
      "The change set is empty; there is nothing to propose."
    case .proposalConflict(let id, let existing, let tree):
      """
      The proposal \(id) already exists as \(existing) with other content or another target \
      than this attempt (tree \(tree)): its idempotency key was reused for a different attempt.
      """
    case .proposalNotFound(let id):
      "The remote has no proposal \(id)."
    case .proposalWithoutTarget(let id):
      "The proposal \(id) does not name its target branch."
    case .mergeConflict(let proposal, let message):
      "The proposal \(proposal) does not merge cleanly into its target: \(message)"
    case .headMovedDuringPublication(let id, let revision, let expected, let actual):
      """
      \(expected.branch) moved from \(expected.revision) to \(actual?.revision ?? "nowhere") while \
      the proposal \(id) was being created, and the proposal (\(revision)) could not be \
      withdrawn: it may target a head that had already moved.
      """
    }
  }

  public var errorDescription: String? { description }
}
