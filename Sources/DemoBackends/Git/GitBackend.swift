import ComposableAuthoring
import ComposableWorkspace
import DemoBackendInterface
import Foundation
import GitWorkspace
import WorkspaceDemoFeature

/// The demo on a Git remote: the catalogue is the remote's `published` branch (one JSON file
/// per event, see ``EventFiles``), proposals are the Git client's `refs/proposals/<key>`.
/// Accounts, sessions and admission stay on the in-memory system.
///
/// ```swift
/// let opened = try await GitRemoteSetup().open(.new)
/// let backend = GitBackend(remote: opened.remote, root: workingCopiesFolder)
/// ```
public struct GitBackend: DemoBackend {
  /// The remote, as git is given it.
  public let location: String
  /// Where the working copies (and the catalogue mirror) are kept: one folder per workspace
  /// id, with the Git client's layout (`<root>/<id>/worktree`, `<root>/<id>/reference.git`).
  public let root: URL
  /// Who keeps the head rule of publication (see `GitHeadGuard`).
  public let headGuard: GitHeadGuard
  /// Where accounts, sessions and admission are kept.
  public let accounts: DemoSystem

  /// A backend on `remote` (a path or a URL git understands), keeping its working copies
  /// under `root` and its accounts on `system`.
  public init(
    remote: String, root: URL, headGuard: GitHeadGuard = .clientChecked,
    system: DemoSystem = DemoSystem()
  ) {
    self.location = remote
    self.root = root
    self.headGuard = headGuard
    self.accounts = system
  }

  public var system: DemoSystem? { accounts }

  public var remote: String? { location }

  public var name: String { "git" }

  public var placeDescription: String { "the Git remote \(location)" }

  /// The branch a new workspace is prepared on.
  static let publishedBranch: BranchName = "published"

  /// The application's clients on this remote. Working copies are the remote's worktrees under
  /// ``root`` (reopened from disk), so `workingCopies` is not needed.
  public func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients {
    let capability = accounts.honouredCapability(of: credentials)
    let git = GitWorkspaceClient(
      configuration: GitWorkspaceConfiguration(
        remote: location, root: root, defaultBranch: Self.publishedBranch, headGuard: headGuard),
      capability: capability
    )
    let catalogue = GitCatalogue(remote: location, root: root)
    let application = DemoClients(
      credentials: credentials,
      auth: .demo(system: accounts, credentials: credentials),
      authoring: .demo(system: accounts, credentials: credentials),
      workspace: .git(git, reader: catalogue.reader, capability: capability),
      catalogue: catalogue.client,
      localData: LocalWorkspaceDataClient { id in try await git.removeWorkingCopy(id) })
    return DemoBackendClients(application: application, reader: catalogue)
  }
}
