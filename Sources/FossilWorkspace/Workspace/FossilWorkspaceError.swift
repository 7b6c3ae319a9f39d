import ComposableWorkspace
import Foundation

/// A definite answer of the Fossil workspace client: the request cannot be carried out as
/// asked. Nothing was changed — on the server or in the working copy — unless the case says so.
public enum FossilWorkspaceError: Error, Hashable, Sendable, LocalizedError,
  CustomStringConvertible
{
  /// The server has no branch of that name.
  case branchNotFound(BranchName)
  /// The name cannot be a Fossil branch (empty, or with control characters).
  case invalidBranchName(BranchName)
  /// The workspace folder holds something that is not this client's working copy; it was
  /// left untouched.
  case notAWorkspace(path: String, reason: String)
  /// The working copy was prepared from another server than this client's.
  case serverMismatch(expected: String, found: String)
  /// The baseline given is not the one installed in the working copy.
  case baselineNotInstalled(given: WorkspaceBranchReference, installed: WorkspaceBranchReference)
  /// Installing `branch` would overwrite local edits of these files (they also changed on
  /// the server); nothing was changed.
  case localEditsWouldBeOverwritten(BranchName, paths: [String])
  /// The change set was captured against another baseline than the one given to publish.
  case changeSetBaselineMismatch(changeSet: String, baseline: WorkspaceBranchReference)
  /// An empty change set was given to publish; nothing was published.
  case emptyChangeSet
  /// The editable copy holds something that is not a regular file or folder (a symbolic
  /// link, a device); it was not read.
  case unsupportedEntry(path: String)
  /// What was captured of a file is no longer in the working copy's `captured/` folder.
  case capturedContentMissing(path: String)
  /// The change set changes nothing on the baseline (every captured file equals the
  /// baseline's); no record was created.
  case nothingToPropose
  /// The proposal was made and sent, but the target branch had moved from `expected` to
  /// `actual` when the server was asked right after (a check-in landed between the pull and the
  /// push, or just after the push). The proposal `id` exists as `revision` and targets exactly
  /// `expected`; it is not claimed as made on the head. A retry of the same attempt answers
  /// it; refreshing and proposing again targets the new head.
  case headMovedDuringPublication(
    id: String, revision: String, expected: WorkspaceBranchReference,
    actual: WorkspaceBranchReference)
  /// A proposal with this idempotency key exists with another target or other content: the
  /// key was reused for a different attempt.
  case proposalConflict(id: String, reason: String)
  /// No proposal of that id exists on the server.
  case proposalNotFound(String)
  /// `fossil merge` met conflicts in these files (the proposal and its target changed the same
  /// lines since the proposal's baseline); nothing was merged.
  case mergeConflict(proposal: String, paths: [String])

  public var description: String {
    switch self {
    case .branchNotFound(let branch):
      "The Fossil server has no branch \(branch)."
    case .invalidBranchName(let branch):
      "\"\(branch)\" cannot be a Fossil branch name."
    case .notAWorkspace(let path, let reason):
      "\(path) is not a workspace working copy (\(reason)); it was left untouched."
    case .serverMismatch(let expected, let found):
      "The working copy belongs to the Fossil server \(found), not \(expected)."
    case .baselineNotInstalled(let given, let installed):
      "The baseline \(given) is not the one installed in the working copy (\(installed))."
    case .localEditsWouldBeOverwritten(let branch, let paths):
      "Installing \(branch) would overwrite local edits of \(paths.joined(separator: ", ")); "
        + "nothing was changed."
    case .changeSetBaselineMismatch(let changeSet, let baseline):
      "The change set was captured against \(changeSet), not against the baseline \(baseline)."
    case .emptyChangeSet:
      "The change set is empty; there is nothing to propose."
    case .unsupportedEntry(let path):
      "\(path) in the working copy is not a regular file or folder; it was not read."
    case .capturedContentMissing(let path):
      "The captured content of \(path) is gone from the working copy; capture again."
    case .nothingToPropose:
      "The change set changes nothing on the baseline; no proposal was created."
    case .headMovedDuringPublication(let id, let revision, let expected, let actual):
      "The proposal \(id) (\(revision)) was made on \(expected), but the branch was at "
        + "\(actual) right after: it is not claimed as made on the head. Retry to answer it, "
        + "or refresh and propose again."
    case .proposalConflict(let id, let reason):
      "The proposal \(id) already exists for another attempt (\(reason)): its idempotency key "
        + "was reused."
    case .proposalNotFound(let id):
      "The Fossil server has no proposal \(id)."
    case .mergeConflict(let proposal, let paths):
      "Merging the proposal \(proposal) conflicts in \(paths.joined(separator: ", ")): "
        + "its target changed the same lines; nothing was merged."
    }
  }

  public var errorDescription: String? { description }
}
