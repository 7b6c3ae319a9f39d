import ComposableWorkspace
import Foundation

/// Where and how a ``FossilWorkspaceClient`` keeps its workspaces and names its proposals.
///
/// ```swift
/// let configuration = FossilWorkspaceConfiguration(
///   root: applicationSupport.appendingPathComponent("workspaces"), defaultBranch: "published")
/// ```
public struct FossilWorkspaceConfiguration: Sendable {
  /// The folder holding one subfolder per workspace id (created when missing, owner-only).
  public var root: URL
  /// The branch a new workspace installs.
  public var defaultBranch: BranchName
  /// Proposal branches are named `<prefix><idempotency key>`.
  public var proposalPrefix: String

  public init(root: URL, defaultBranch: BranchName = "trunk", proposalPrefix: String = "proposal-")
  {
    self.root = root
    self.defaultBranch = defaultBranch
    self.proposalPrefix = proposalPrefix
  }

  /// The proposal branch of the attempt with `key`.
  func proposalBranch(for key: UUID) -> String {
    proposalPrefix + key.uuidString.lowercased()
  }
}
