import ComposableWorkspace
import Foundation

extension FossilWorkspaceClient {
  /// How many of a target branch's newest check-ins are searched for the merge of a proposal.
  static let mergeSearchDepth = 500

  /// Every proposal on the server (branches named with the proposal prefix), sorted by id.
  public func listProposals() async throws -> [FossilProposal] {
    try await authorized(askingServer: false)
    return try await revokingOnRefusal {
      let names = try await repository.branches().filter {
        $0.hasPrefix(configuration.proposalPrefix)
      }
      var merges: [BranchName: [FossilRepository.CheckIn]] = [:]
      var proposals: [FossilProposal] = []
      for name in names.sorted() {
        guard var proposal = try await proposal(branch: name) else { continue }
        let branch = proposal.target.branch
        if merges[branch] == nil {
          merges[branch] = try await repository.timeline(
            of: branch.rawValue, limit: Self.mergeSearchDepth)
        }
        let line = ProposalMarker.mergeLine(of: name)
        proposal.mergedInto = merges[branch]?.first { $0.comment?.contains(line) == true }?.uuid
        proposals.append(proposal)
      }
      return proposals
    }
  }

  /// Merges proposal `proposalID` (its id, or its bare idempotency key) into its target
  /// branch as a reviewer's commit and answers the branch's new head: each file the proposal
  /// changed is checked in on the target's newest check-in with the proposal's content
  /// (Fossil refuses a parent that moved meanwhile; the merge then starts over). Files the
  /// target changed too since the proposal's baseline are a
  /// ``FossilWorkspaceError/mergeConflict(proposal:paths:)``. Merging a merged proposal
  /// answers the current head and changes nothing.
  public func merge(proposalID: String) async throws -> WorkspaceBranchReference {
    try await revokingOnRefusal {
      try await authorized(askingServer: true)
      let name = proposalBranch(named: proposalID)
      guard let proposal = try await proposal(branch: name) else {
        throw FossilWorkspaceError.proposalNotFound(proposalID)
      }
      let base = try await repository.files(of: proposal.target.revision)
      let proposed = try await repository.files(of: proposal.head)
      let changed = Set(base.keys).union(proposed.keys).filter { base[$0] != proposed[$0] }
      let unsupported = changed.filter { base[$0] == nil || proposed[$0] == nil }
      guard unsupported.isEmpty else {
        throw FossilWorkspaceError.unsupportedChanges(paths: unsupported.sorted())
      }
      let comment =
        "Merge “\(proposal.title.isEmpty ? name : proposal.title)”\n\n"
        + ProposalMarker.mergeLine(of: name)
      for _ in 0..<ProposalPublication.rounds {
        guard let head = try await repository.head(of: proposal.target.branch.rawValue) else {
          throw FossilWorkspaceError.branchNotFound(proposal.target.branch)
        }
        let current = try await repository.files(of: head.uuid)
        let pending = changed.filter { current[$0] != proposed[$0] }.sorted()
        let conflicts = pending.filter { current[$0] != base[$0] }
        guard conflicts.isEmpty else {
          throw FossilWorkspaceError.mergeConflict(proposal: name, paths: conflicts)
        }
        if let merged = try await commit(pending, of: proposed, onto: head.uuid, comment: comment) {
          return WorkspaceBranchReference(branch: proposal.target.branch, revision: merged)
        }
      }
      throw FossilUnavailable("\(proposal.target.branch) kept moving during the merge; try again")
    }
  }

  /// Checks `paths` in with `proposed`'s contents on `parent`, one per check-in; answers the
  /// newest check-in, or `nil` when `parent` stopped being a leaf meanwhile.
  private func commit(
    _ paths: [String], of proposed: [String: FossilManifest.Entry], onto parent: String,
    comment: String
  ) async throws -> String? {
    var tip = parent
    for path in paths {
      guard let entry = proposed[path] else { continue }
      let file = FossilRepository.FileContent(
        path: path, content: try await repository.artifact(entry.hash),
        executable: entry.executable)
      switch try await repository.commit(file, onto: tip, comment: comment) {
      case .committed(let next): tip = next
      case .unchanged: continue
      case .staleParent: return nil
      }
    }
    return tip
  }

  /// The proposal on `branch`, or `nil` when there is no such branch.
  func proposal(branch: String) async throws -> FossilProposal? {
    guard let tip = try await repository.head(of: branch) else { return nil }
    let marker = ProposalMarker.parse(tip.comment)
    let target: WorkspaceBranchReference
    if let marker {
      target = marker.target
    } else {
      // Only the branch's root so far: its parent is the baseline.
      guard let parent = tip.firstParent else {
        throw FossilWorkspaceError.proposalConflict(id: branch, reason: "it has no parent")
      }
      let base = try await repository.checkIn(parent)
      target = WorkspaceBranchReference(
        branch: BranchName(base.tags?.first ?? configuration.defaultBranch.rawValue),
        revision: base.uuid)
    }
    return FossilProposal(
      id: branch, key: marker?.key,
      title: ProposalMarker.title(of: marker == nil ? nil : tip.comment),
      author: tip.user, head: tip.uuid, target: target, mergedInto: nil)
  }

  /// The branch of proposal `id`: the id itself, or the prefix and a bare key.
  func proposalBranch(named id: String) -> String {
    if let key = UUID(uuidString: id) { return configuration.proposalBranch(for: key) }
    return id
  }
}
