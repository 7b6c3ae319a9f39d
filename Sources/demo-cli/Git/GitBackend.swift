import ComposableAuthoring
import ComposableWorkspace
import Foundation
import GitWorkspace
import WorkspaceDemoFeature

/// Where the demo's catalogue and workspace live.
enum DemoBackend: Sendable {
  /// The in-memory system (the default).
  case memory
  /// A Git remote.
  case git(GitBackend)
}

/// The demo on a Git remote: the catalogue is the remote's `published` branch (one JSON file
/// per event, see ``EventFiles``), proposals are the Git client's `refs/proposals/<key>`.
/// Accounts, sessions, admission and grants stay on the in-memory system.
struct GitBackend: Sendable {
  /// The remote, as git is given it.
  let remote: String
  /// Where the working copies (and the catalogue mirror) are kept: one folder per workspace
  /// id, with the Git client's layout (`<root>/<id>/worktree`, `<root>/<id>/reference.git`).
  let root: URL

  /// The branch a new workspace is prepared on.
  static let publishedBranch: BranchName = "published"

  /// The application's clients on this remote.
  func clients(system: DemoSystem, credentials: DemoCredentials) -> (
    workspace: DemoWorkspaceClient, catalogue: GitCatalogue, localData: LocalWorkspaceDataClient
  ) {
    let capability = Self.capability(system: system, credentials: credentials)
    let git = GitWorkspaceClient(
      configuration: GitWorkspaceConfiguration(
        remote: remote, root: root, defaultBranch: Self.publishedBranch),
      capability: capability
    )
    let catalogue = GitCatalogue(remote: remote, root: root)
    return (
      .git(git, reader: catalogue.reader, capability: capability), catalogue,
      LocalWorkspaceDataClient(remove: { id in try await git.removeWorkingCopy(id) })
    )
  }

  /// The current authoring capability, as the server sees it: the context Authoring validated
  /// (`credentials.capability`), if the system still honours its grant for the signed-in
  /// session (else `nil`, which the Git client answers with
  /// `WorkspaceAuthorizationError.invalidated`).
  static func capability(system: DemoSystem, credentials: DemoCredentials)
    -> @Sendable () async -> AuthoringContext?
  {
    {
      guard let context = credentials.capability.current,
        let session = credentials.current.session,
        (try? await system.validate(grantID: context.grant.rawValue, token: session.token)) != nil
      else { return nil }
      return context
    }
  }
}
