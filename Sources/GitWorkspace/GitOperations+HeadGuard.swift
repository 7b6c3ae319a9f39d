import ComposableWorkspace
import Foundation

extension GitOperations {
  /// The head rule once the attempt's proposal ref exists (pushed now, or found by a retry),
  /// given `head`, the branch's value in a listing made after the proposal existed (`nil`: the
  /// branch is gone). See ``GitHeadGuard``.
  ///
  /// With ``GitHeadGuard/clientChecked``: returns when the branch is at the baseline or
  /// contains the proposal; otherwise withdraws the proposal ref and throws
  /// `WorkspaceHeadMismatch` (or ``GitWorkspaceError/branchNotFound(_:remote:)``), or
  /// ``GitWorkspaceError/headMovedDuringPublication(id:revision:expected:actual:)`` when the
  /// withdrawal failed. With ``GitHeadGuard/remoteEnforced`` the remote already refused a
  /// proposal on a moved head: returns.
  func confirmHead(
    of commit: String, for attempt: ProposalAttempt, baseline: WorkspaceBranchReference,
    head: String?, in reference: URL
  ) async throws {
    guard configuration.headGuard == .clientChecked, head != attempt.base else { return }
    if head != nil, try await branch(attempt.branch, contains: commit, in: reference) { return }
    let actual = head.map { WorkspaceBranchReference(branch: baseline.branch, revision: $0) }
    do {
      try await remote(
        [
          "push", "--porcelain", "--quiet", "--no-verify", "origin",
          "--force-with-lease=\(attempt.proposalRef):\(commit)", ":\(attempt.proposalRef)",
        ],
        in: reference
      )
    } catch let error where !(error is CancellationError) {
      throw GitWorkspaceError.headMovedDuringPublication(
        id: attempt.proposalRef, revision: commit, expected: baseline, actual: actual)
    }
    guard let actual else {
      throw GitWorkspaceError.branchNotFound(baseline.branch, remote: configuration.remote)
    }
    throw WorkspaceHeadMismatch(expected: baseline, actual: actual)
  }

  /// Whether the remote's `branch` (fetched now) contains `commit`: a reviewer merged it.
  private func branch(_ branch: BranchName, contains commit: String, in reference: URL)
    async throws -> Bool
  {
    let head: String
    do {
      head = try await fetchHead(of: branch, into: reference)
    } catch is GitWorkspaceError {
      return false
    }
    return try await isAncestor(commit, of: head, in: reference)
  }
}
