import ComposableWorkspace
import Foundation

extension GitOperations {
  /// Fetches every branch and proposal into the review repository and lists the proposals.
  func listProposals(in review: URL) async throws -> [GitProposal] {
    try await refreshReview(review)
    let namespace = configuration.proposalNamespace
    let format =
      [
        "%(refname)", "%(objectname)", "%(parent)", "%(authorname) %(authoremail)",
        "%(contents:subject)", "%(contents:body)",
        "%(trailers:key=\(ProposalAttempt.targetTrailer),valueonly,separator=%x2C)",
      ].joined(separator: "%00") + "%00"
    let output = try await git.run(
      [
        "for-each-ref", "--sort=refname", "--sort=committerdate", "--format=\(format)",
        "\(namespace)/",
      ], in: review
    ).standardOutput
    let fieldCount = 7
    var fields = output.split(separator: 0, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    if fields.last?.trimmingCharacters(in: .newlines).isEmpty == true { fields.removeLast() }

    var proposals: [GitProposal] = []
    var mergedByBranch: [BranchName: Set<String>] = [:]
    var index = 0
    while index + fieldCount <= fields.count {
      let record = fields[index..<(index + fieldCount)].map { $0 }
      index += fieldCount
      let ref = record[0].trimmingCharacters(in: .newlines)
      let target = BranchName(record[6].trimmingCharacters(in: .whitespacesAndNewlines))
      let parent = record[2].split(separator: " ").first.map(String.init) ?? ""
      if mergedByBranch[target] == nil {
        mergedByBranch[target] = try await mergedProposals(into: target, in: review)
      }
      proposals.append(
        GitProposal(
          record: ProposalRecord(
            id: ref, contentRevision: record[1],
            target: WorkspaceBranchReference(branch: target, revision: parent)
          ),
          title: record[4],
          summary: Self.withoutTrailers(record[5]),
          author: record[3],
          isMerged: mergedByBranch[target]?.contains(ref) ?? false
        )
      )
    }
    return proposals
  }

  /// Merges a proposal into its target branch on the remote and answers the new head.
  func merge(_ proposalID: String, in review: URL) async throws -> WorkspaceBranchReference {
    try await refreshReview(review)
    let ref = try proposalRef(for: proposalID)
    guard let proposal = try await commit(ref, in: review) else {
      throw GitWorkspaceError.proposalNotFound(proposalID)
    }
    let trailer = try await git.text(
      [
        "show", "-s", "--format=%(trailers:key=\(ProposalAttempt.targetTrailer),valueonly)",
        proposal,
      ], in: review
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trailer.isEmpty, !trailer.contains("\n") else {
      throw GitWorkspaceError.proposalWithoutTarget(proposalID)
    }
    let branch = BranchName(trailer)
    try validateBranchName(branch)
    guard let head = try await commit("refs/remotes/origin/\(branch)", in: review) else {
      throw GitWorkspaceError.branchNotFound(branch, remote: configuration.remote)
    }
    if try await isAncestor(proposal, of: head, in: review) {
      return WorkspaceBranchReference(branch: branch, revision: head)
    }
    let merged: String
    if try await isAncestor(head, of: proposal, in: review) {
      merged = proposal
    } else {
      let result = try await git.run(
        ["merge-tree", "--write-tree", "--no-messages", head, proposal], in: review,
        acceptedStatuses: [0, 1]
      )
      let lines = result.outputText.split(separator: "\n").map(String.init)
      guard result.status == 0, let tree = lines.first else {
        throw GitWorkspaceError.mergeConflict(
          proposal: proposalID, message: lines.dropFirst().joined(separator: "\n")
        )
      }
      let subject = try await git.text(["show", "-s", "--format=%s", proposal], in: review)
      merged = try await git.text(
        ["commit-tree", tree, "-p", head, "-p", proposal, "-F", "-"], in: review,
        environment: Self.commitDates(configuration.now()),
        input: Data("Merge proposal \(ref)\n\n\(subject)\n".utf8)
      )
    }
    try await remote(
      [
        "push", "--porcelain", "--quiet", "--no-verify", "origin",
        "--force-with-lease=refs/heads/\(branch):\(head)", "\(merged):refs/heads/\(branch)",
      ],
      in: review
    )
    try await git.run(["update-ref", "refs/remotes/origin/\(branch)", merged], in: review)
    return WorkspaceBranchReference(branch: branch, revision: merged)
  }

  /// Creates the review repository when missing and fetches branches and proposals (pruning
  /// what the remote no longer has).
  private func refreshReview(_ review: URL) async throws {
    try validateRemote()
    if !FileManager.default.fileExists(atPath: review.appendingPathComponent("HEAD").path) {
      try FileManager.default.createDirectory(
        at: review.deletingLastPathComponent(), withIntermediateDirectories: true
      )
      let partial = review.deletingLastPathComponent()
        .appendingPathComponent(".proposals.git.partial-\(UUID().uuidString)", isDirectory: true)
      do {
        try await git.run(["init", "--quiet", "--bare", partial.path])
        try await git.run(["remote", "add", "origin", configuration.remote], in: partial)
        try FileManager.default.moveItem(at: partial, to: review)
      } catch {
        try? FileManager.default.removeItem(at: partial)
        throw error
      }
    }
    let namespace = configuration.proposalNamespace
    try await remote(
      [
        "fetch", "--quiet", "--prune", "--no-tags", "--no-write-fetch-head", "origin",
        "+refs/heads/*:refs/remotes/origin/*", "+\(namespace)/*:\(namespace)/*",
      ],
      in: review
    )
  }

  private func proposalRef(for id: String) throws -> String {
    let namespace = configuration.proposalNamespace
    let key = id.hasPrefix(namespace + "/") ? String(id.dropFirst(namespace.count + 1)) : id
    guard let uuid = UUID(uuidString: key) else { throw GitWorkspaceError.proposalNotFound(id) }
    return "\(namespace)/\(uuid.uuidString.lowercased())"
  }

  func isAncestor(_ ancestor: String, of descendant: String, in repository: URL)
    async throws -> Bool
  {
    try await git.run(
      ["merge-base", "--is-ancestor", ancestor, descendant], in: repository,
      acceptedStatuses: [0, 1]
    ).status == 0
  }

  private func mergedProposals(into branch: BranchName, in review: URL) async throws -> Set<String>
  {
    guard !branch.rawValue.isEmpty,
      try await commit("refs/remotes/origin/\(branch)", in: review) != nil
    else {
      return []
    }
    let listing = try await git.text(
      [
        "for-each-ref", "--format=%(refname)", "--merged=refs/remotes/origin/\(branch)",
        "\(configuration.proposalNamespace)/",
      ],
      in: review
    )
    return Set(listing.split(separator: "\n").map(String.init))
  }

  /// A commit body without its trailing `Proposal-…` trailer paragraph.
  static func withoutTrailers(_ body: String) -> String {
    var paragraphs = body.trimmingCharacters(in: .whitespacesAndNewlines).components(
      separatedBy: "\n\n")
    if let last = paragraphs.last,
      last.split(separator: "\n").allSatisfy({ $0.hasPrefix("Proposal-") })
    {
      paragraphs.removeLast()
    }
    return paragraphs.joined(separator: "\n\n")
  }
}
