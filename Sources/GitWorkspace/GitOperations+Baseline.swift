import ComposableWorkspace
import Foundation

extension GitOperations {
  /// Fetches `branch` and installs its head as the working copy's baseline; answers exactly
  /// `branch` at that head.
  ///
  /// The worktree's edits are carried from the recorded baseline onto the new head with a
  /// two-tree merge (`git read-tree -m -u <old> <new>` on a temporary snapshot index): files
  /// unchanged upstream keep the user's content, files the user did not touch take the new
  /// content. A file changed on both sides (or an ignored/untracked file in the way) makes the
  /// whole installation fail with ``GitWorkspaceError/localEditsWouldBeOverwritten(_:message:)``
  /// before anything changed. Then HEAD moves (detached) to the new head, the user's index is
  /// reset to it, and the new baseline is recorded.
  func install(_ branch: BranchName, in source: GitWorkingCopy) async throws
    -> WorkspaceBranchReference
  {
    try validateBranchName(branch)
    let index = try await validate(source)
    guard let recorded = try await recordedBaseline(in: source.reference) else {
      throw GitWorkspaceError.notAWorkspace(
        path: source.reference.path, reason: "it has no installed baseline; prepare it first"
      )
    }
    let head = try await fetchHead(of: branch, into: source.reference)
    let installed = WorkspaceBranchReference(branch: branch, revision: head)
    if head != recorded.revision {
      try await withTemporaryIndex { temporary in
        try await snapshot(source, index: index, baseline: recorded.revision, into: temporary)
        do {
          try await git.run(
            ["read-tree", "-m", "-u", recorded.revision, head], in: source.worktree,
            environment: ["GIT_INDEX_FILE": temporary.path]
          )
        } catch let error as GitError {
          throw GitWorkspaceError.localEditsWouldBeOverwritten(branch, message: error.message)
        }
      }
      try await git.run(
        ["update-ref", "--no-deref", "-m", "workspace: install \(installed)", "HEAD", head],
        in: source.worktree
      )
      try await git.run(
        ["reset", "--quiet", "--mixed"], in: source.worktree, acceptedStatuses: [0, 1])
    }
    if recorded != installed {
      try await record(installed, in: source.reference)
    }
    return installed
  }
}
