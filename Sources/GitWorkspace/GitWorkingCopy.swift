import Foundation

/// The Git integration's workspace source: the writable worktree the user edits, the stable
/// local reference repository that holds the baselines, and the remote both come from.
///
/// Layout under the client's root, per workspace id:
///
/// ```text
/// <root>/<id>/reference.git   bare reference repository: remote-tracking refs, the installed
///                             baseline (the one ref refs/workspace/baseline/<branch>),
///                             publication attempts (refs/workspace/attempts/<key>)
/// <root>/<id>/worktree        the writable worktree, a linked worktree of reference.git with
///                             its own HEAD and index (git status works there as usual)
/// ```
///
/// The value is what `Workspace` keeps in its ready session and hands back to every later
/// client call; it is `Codable`, so an app may persist the session and reopen it.
public struct GitWorkingCopy: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The writable worktree: the editor's source of truth.
  public var worktree: URL
  /// The bare reference repository the worktree is linked to (read-only to editors).
  public var reference: URL
  /// The remote URL the workspace was prepared from.
  public var remote: String

  public init(worktree: URL, reference: URL, remote: String) {
    self.worktree = worktree
    self.reference = reference
    self.remote = remote
  }

  public var description: String {
    "worktree \(worktree.path) (reference \(reference.path), remote \(remote))"
  }
}
