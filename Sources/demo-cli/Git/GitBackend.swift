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
    workspace: DemoWorkspaceClient, catalogue: GitCatalogue
  ) {
    let capability = Self.capability(system: system, credentials: credentials)
    let git = GitWorkspaceClient(
      configuration: GitWorkspaceConfiguration(
        remote: remote, root: root, defaultBranch: Self.publishedBranch),
      capability: capability
    )
    let catalogue = GitCatalogue(remote: remote, root: root)
    return (.git(git, reader: catalogue.reader, capability: capability), catalogue)
  }

  /// The current authoring capability, as the server sees it: the grant in `credentials`, if
  /// the system still honours it for the signed-in session (else `nil`, which the Git client
  /// answers with `WorkspaceAuthorizationError.invalidated`).
  static func capability(system: DemoSystem, credentials: DemoCredentials)
    -> @Sendable () async -> AuthoringContext?
  {
    {
      let values = credentials.current
      guard let grant = values.grant, let session = values.session,
        let validated = try? await system.validate(grantID: grant.rawValue, token: session.token)
      else { return nil }
      return AuthoringContext(
        identity: AuthoringIdentity(rawValue: validated.username), grant: grant,
        capabilities: [.edit, .publish])
    }
  }
}
