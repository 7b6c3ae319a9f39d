import ComposableWorkspace
import Foundation

extension FossilWorkspaceClient {
  /// Every proposal on the server (branches named with the proposal prefix), sorted by id,
  /// read from the local clone after a `fossil pull`. Reading is public: it needs no
  /// capability and works for anyone the server lets read (signed in or not). A proposal is
  /// merged when a check-in names its check-in as a merge parent — Fossil's own merge graph,
  /// at any depth of history.
  public func listProposals() async throws -> [FossilProposal] {
    try await serialized {
      let clone = self.clone
      try await clone.pull()
      let heads = try await clone.branchHeads(prefix: self.configuration.proposalPrefix)
      return heads.keys.sorted().compactMap { name in
        heads[name].flatMap { self.proposal(branch: name, head: $0) }
      }
    }
  }

  /// Merges proposal `proposalID` (its id, or its bare idempotency key) into its target
  /// branch and answers the branch's new head: in a scratch check-out of the target's newest
  /// check-in, `fossil merge --integrate` of the proposal, then `fossil commit` as the
  /// signed-in reviewer and `fossil push`. The merge check-in names the proposal as its merge
  /// parent and closes the proposal's branch (`fossil leaves` no longer lists it). Conflicting
  /// lines are a ``FossilWorkspaceError/mergeConflict(proposal:paths:)`` and nothing is
  /// committed. Merging a merged proposal answers the current head and changes nothing.
  ///
  /// A check-in landing on the target between the pull and the push forks it, as it would for
  /// `fossil commit` on any clone; the server is asked for the head after the push, and a head
  /// that is not the merge is reported (``FossilWorkspaceError/headMovedDuringPublication(id:revision:expected:actual:)``).
  public func merge(proposalID: String) async throws -> WorkspaceBranchReference {
    try await revokingOnRefusal {
      let context = try await authorized(askingServer: true)
      let name = proposalBranch(named: proposalID)
      return try await serialized {
        let clone = self.clone
        try await clone.pull()
        guard let head = try await clone.head(of: name),
          let proposal = self.proposal(branch: name, head: head)
        else { throw FossilWorkspaceError.proposalNotFound(proposalID) }
        let target = proposal.target.branch
        guard let targetHead = try await clone.head(of: target.rawValue) else {
          throw FossilWorkspaceError.branchNotFound(target)
        }
        if proposal.mergedInto != nil {
          return WorkspaceBranchReference(branch: target, revision: targetHead.uuid)
        }
        let merged = try await clone.withCheckout(of: targetHead.uuid) { checkout in
          let result = try await clone.fossil.run(
            ["merge", "--integrate", proposal.head], in: checkout, allowingFailure: true)
          let conflicts = Self.conflicts(in: result.outputText + result.errorText)
          guard conflicts.isEmpty else {
            throw FossilWorkspaceError.mergeConflict(proposal: name, paths: conflicts)
          }
          guard result.status == 0 else {
            throw FossilCommandError(
              arguments: ["merge"], status: result.status,
              message: result.errorText.trimmingCharacters(in: .whitespacesAndNewlines))
          }
          let title = proposal.title.isEmpty ? name : proposal.title
          return try await clone.commit(
            in: checkout,
            comment: "Merge “\(title)”\n\n" + ProposalMarker.mergeLine(of: name),
            user: context.identity.rawValue)
        }
        try await clone.push()
        let reference = WorkspaceBranchReference(branch: target, revision: merged)
        guard let now = try await self.repository.head(of: target.rawValue) else {
          throw FossilWorkspaceError.branchNotFound(target)
        }
        guard now.uuid == merged else {
          throw FossilWorkspaceError.headMovedDuringPublication(
            id: name, revision: merged, expected: reference,
            actual: WorkspaceBranchReference(branch: target, revision: now.uuid))
        }
        return reference
      }
    }
  }

  /// The files `fossil merge` reported conflicts in (`***** N merge conflicts in PATH`).
  static func conflicts(in output: String) -> [String] {
    output.split(whereSeparator: \.isNewline).compactMap { line in
      guard line.hasPrefix("***** "),
        let range = line.range(of: " conflicts in ")
          ?? line.range(of: " conflict in ")
      else { return nil }
      return String(line[range.upperBound...])
    }.sorted()
  }

  /// The proposal whose branch `branch` has `head` as its newest check-in.
  func proposal(branch: String, head: FossilClone.CheckIn) -> FossilProposal? {
    let marker = ProposalMarker.parse(head.comment)
    let target: WorkspaceBranchReference
    if let marker {
      target = marker.target
    } else if let parent = head.parent {
      target = WorkspaceBranchReference(branch: configuration.defaultBranch, revision: parent)
    } else {
      return nil
    }
    return FossilProposal(
      id: branch, key: marker?.key,
      title: ProposalMarker.title(of: marker == nil ? nil : head.comment),
      author: head.user, head: head.uuid, target: target, mergedInto: head.mergedInto)
  }

  /// The branch of proposal `id`: the id itself, or the prefix and a bare key.
  func proposalBranch(named id: String) -> String {
    if let key = UUID(uuidString: id) { return configuration.proposalBranch(for: key) }
    return id
  }
}
