import ComposableAuthoring
import ComposableWorkspace
import Foundation

extension WorkspaceClient where Source == GitWorkingCopy, ChangeSet == GitChangeSet {
  /// A workspace client over the Git remote `remote`, keeping workspaces under `root`; see
  /// ``GitWorkspaceClient`` for what each endpoint does.
  ///
  /// ```swift
  /// EventApplication().dependency(
  ///   WorkspaceClient.git(remote: url, root: workspaces, capability: { await current.context })
  /// )
  /// ```
  public static func git(
    remote: String,
    root: URL,
    defaultBranch: BranchName = "main",
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) -> Self {
    GitWorkspaceClient(
      remote: remote, root: root, defaultBranch: defaultBranch, capability: capability
    )
    .client
  }
}
