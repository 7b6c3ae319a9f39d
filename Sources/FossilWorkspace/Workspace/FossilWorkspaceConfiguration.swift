import ComposableWorkspace
import Foundation

/// Where and how a ``FossilWorkspaceClient`` keeps its workspaces and names its proposals.
///
/// ```swift
/// let configuration = FossilWorkspaceConfiguration(
///   root: applicationSupport.appendingPathComponent("workspaces"), defaultBranch: "published")
/// ```
public struct FossilWorkspaceConfiguration: Sendable {
  /// The folder holding one subfolder per workspace id (created when missing, owner-only),
  /// and `.fossil/`, the local clone of the server's repository.
  public var root: URL
  /// The branch a new workspace installs.
  public var defaultBranch: BranchName
  /// Proposal branches are named `<prefix><idempotency key>`.
  public var proposalPrefix: String
  /// The `fossil` executable the local clone is worked with (`nil`: the first on `PATH`).
  public var fossilExecutable: URL?

  public init(
    root: URL, defaultBranch: BranchName = "trunk", proposalPrefix: String = "proposal-",
    fossilExecutable: URL? = nil
  ) {
    self.root = root
    self.defaultBranch = defaultBranch
    self.proposalPrefix = proposalPrefix
    self.fossilExecutable = fossilExecutable
  }

  /// The proposal branch of the attempt with `key`.
  func proposalBranch(for key: UUID) -> String {
    proposalPrefix + key.uuidString.lowercased()
  }
}
