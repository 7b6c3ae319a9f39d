/// How a ``GitWorkspaceClient`` keeps the integration contract's head rule: a proposal is
/// created only while its target branch is at the baseline it was captured against, else
/// `WorkspaceHeadMismatch`.
///
/// Plain Git cannot make "create `refs/proposals/<key>` only if `refs/heads/<branch>` is at
/// `<base>`" one atomic step: a push sends a lease only for the refs it changes, and a
/// proposal push does not change the branch (git 2.39 skips `<base>:refs/heads/<branch>` as up
/// to date, lease and all). So either the client checks before and after, or the remote
/// enforces the rule itself.
///
/// ```swift
/// var configuration = GitWorkspaceConfiguration(remote: path, root: workspaces)
/// if GitHeadGuardHook.isInstalled(in: URL(fileURLWithPath: path)) {
///   configuration.headGuard = .remoteEnforced
/// }
/// ```
public enum GitHeadGuard: Hashable, Sendable {
  /// Any Git remote. Before the push the client asks the remote for the branch head (a moved
  /// head throws `WorkspaceHeadMismatch`, nothing is pushed). Once its push created the
  /// proposal ref it asks again, and answers the record only when the branch is still at the
  /// baseline, or contains the proposal (a reviewer merged it). Otherwise it withdraws the
  /// proposal ref (a delete leased on the proposal's commit) and throws
  /// `WorkspaceHeadMismatch`: the race is reported, never claimed.
  ///
  /// Guarantee, for a record answered by the call that pushed it: as long as the branch only
  /// moves forward (no force-push back to the baseline), the proposal was created while its
  /// branch was at the record's target. A move seen after the push may have happened after
  /// the proposal landed; it is reported all the same (a false alarm: refreshing and retrying
  /// creates the proposal again, under the same key). When the withdrawal itself fails, the
  /// error is ``GitWorkspaceError/headMovedDuringPublication(id:revision:expected:actual:)``.
  ///
  /// Not covered: a retry that finds the key's proposal already on the remote answers it as
  /// it is (it exists: the commit point passed, and the branch may rightly have moved since).
  /// If the call that pushed it never made its check (the process died between the push and
  /// the check), nobody knows whether the branch had moved first. Only the remote can close
  /// that gap: ``remoteEnforced``.
  case clientChecked

  /// The remote runs ``GitHeadGuardHook``: it creates a proposal ref only while it holds the
  /// target branch's ref lock with the branch at the proposal's parent, so no push can move the
  /// branch between that check and the creation. Exact, force-pushes included. The client
  /// checks before the push as above, trusts the remote's refusal (judged as
  /// `WorkspaceHeadMismatch` when the branch moved) and does not ask again afterwards. Declare
  /// it only for a remote that has the hook
  /// (``GitHeadGuardHook/isInstalled(in:proposalNamespace:)``).
  case remoteEnforced
}
