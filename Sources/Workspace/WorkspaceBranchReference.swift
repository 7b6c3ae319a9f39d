/// An exact branch baseline: a branch and the one revision of it that working edits are
/// compared against.
///
/// The pair is the unit of every baseline rule:
/// - `refreshBaseline` may change only ``revision``; the ``branch`` identity is kept.
/// - `selectBranch` installs a reference whose ``branch`` is exactly the requested one.
/// - A ``ProposalRecord``'s ``ProposalRecord/target`` is the baseline it was captured against.
public struct WorkspaceBranchReference: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The branch.
  public var branch: BranchName
  /// The exact revision of ``branch`` (a commit hash, a content revision id…).
  public var revision: String

  public init(branch: BranchName, revision: String) {
    self.branch = branch
    self.revision = revision
  }

  /// `branch@revision`.
  public var description: String { "\(branch)@\(revision)" }
}
