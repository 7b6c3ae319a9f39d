import ComposableAuthoring
import ComposableWorkspace
import Foundation

/// Everything a ``GitWorkspaceClient`` needs besides the capability provider.
///
/// ```swift
/// var configuration = GitWorkspaceConfiguration(
///   remote: "https://git.example.com/catalogue.git",
///   root: URL(fileURLWithPath: "/var/lib/app/workspaces")
/// )
/// configuration.git.environment["GIT_SSH_COMMAND"] = "ssh -i /etc/app/deploy_key"
/// ```
public struct GitWorkspaceConfiguration: Sendable {
  /// The remote every workspace is prepared from and proposals are pushed to (any URL or path
  /// `git clone` accepts).
  public var remote: String
  /// The directory holding one subdirectory per workspace id (created when missing).
  public var root: URL
  /// The branch a new workspace installs.
  public var defaultBranch: BranchName
  /// The ref namespace proposals are pushed to; a proposal is `<namespace>/<idempotency key>`.
  public var proposalNamespace: String
  /// How git is run (executable, extra environment, extra `-c` settings).
  public var git: GitProcess
  /// Author and committer of proposal and merge commits, from the operation's capability.
  public var signature: @Sendable (AuthoringContext) -> GitSignature
  /// The time stamped on a new proposal or merge commit.
  public var now: @Sendable () -> Date
  /// Who keeps the head rule of publication: the client (any remote, the default) or the
  /// remote's ``GitHeadGuardHook``. See ``GitHeadGuard`` for exactly what each guarantees.
  public var headGuard: GitHeadGuard

  public init(
    remote: String,
    root: URL,
    defaultBranch: BranchName = "main",
    proposalNamespace: String = "refs/proposals",
    git: GitProcess = GitProcess(),
    signature: @escaping @Sendable (AuthoringContext) -> GitSignature = GitSignature.from,
    now: @escaping @Sendable () -> Date = { Date() },
    headGuard: GitHeadGuard = .clientChecked
  ) {
    self.remote = remote
    self.root = root
    self.defaultBranch = defaultBranch
    self.proposalNamespace = proposalNamespace
    self.git = git
    self.signature = signature
    self.now = now
    self.headGuard = headGuard
  }
}
