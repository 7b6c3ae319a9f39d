import ComposableAuthoring
import ComposableWorkspace
import Foundation

extension WorkspaceClient where Source == GitWorkingCopy, ChangeSet == GitChangeSet {
  /// A workspace client over the Git remote `remote`, keeping workspaces under `root`; see
  /// ``GitWorkspaceClient`` for what each endpoint does.
  ///
  /// ```swift
  /// let capability = AuthoringCapabilityProvider()
  /// EventApplication()
  ///   .dependency(capability)
  ///   .dependency(WorkspaceClient.git(remote: url, root: workspaces, capability: capability))
  /// ```
  public static func git(
    remote: String,
    root: URL,
    defaultBranch: BranchName = "main",
    capability: AuthoringCapabilityProvider
  ) -> Self {
    GitWorkspaceClient(
      remote: remote, root: root, defaultBranch: defaultBranch, capability: capability
    )
    .client
  }

  /// A workspace client over the Git remote `remote` that reads the capability through
  /// `capability` (see the closure-taking `GitWorkspaceClient.init(configuration:capability:)`).
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
