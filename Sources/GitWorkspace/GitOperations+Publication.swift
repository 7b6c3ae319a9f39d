import ComposableWorkspace
import Foundation

extension GitOperations {
  /// Publishes `changes` as the proposal `<namespace>/<key>`; see
  /// ``GitWorkspaceClient/publishProposal(_:_:_:_:)``.
  ///
  /// Order: validate → ask the remote for the proposal ref and the branch head (one
  /// `ls-remote`) → an existing proposal answers the retry (or a conflict) → a moved head
  /// throws `WorkspaceHeadMismatch` → build (or reuse) the attempt's commit → `beforePush`
  /// (the capability check at the commit point) → one create-only push → the head rule
  /// checked again now that the proposal exists (``confirmHead(of:for:baseline:head:in:)``,
  /// see ``GitHeadGuard``). A failed push is judged by asking the remote again, so a push that
  /// landed although its answer was lost still answers its record.
  func publish(
    _ changes: GitChangeSet,
    of source: GitWorkingCopy,
    against baseline: WorkspaceBranchReference,
    request: ProposalRequest,
    beforePush: @Sendable () async throws -> Void
  ) async throws -> ProposalRecord {
    guard !changes.isEmpty else { throw GitWorkspaceError.emptyChangeSet }
    try validateBranchName(baseline.branch)
    _ = try await validate(source)
    // The baseline's commit and the commit remembered for this key (a retry's), in one process.
    let resolved = try await commits(
      [baseline.revision, ProposalAttempt.attemptRef(for: request.idempotencyKey)],
      in: source.reference)
    guard let base = resolved[0] else { throw GitWorkspaceError.unknownRevision(baseline) }
    guard changes.baseline == base else {
      throw GitWorkspaceError.changeSetBaselineMismatch(
        changeSet: changes.baseline, baseline: baseline)
    }
    let attempt = ProposalAttempt(
      key: request.idempotencyKey, namespace: configuration.proposalNamespace,
      branch: baseline.branch, base: base, tree: changes.tree
    )

    let remote = try await remoteRefs(
      [attempt.branchRef, attempt.proposalRef], in: source.reference)
    if let existing = remote[attempt.proposalRef] {
      // A retry of an attempt whose proposal exists: answered as it is (the head rule was the
      // business of the call that pushed it; see GitHeadGuard).
      return try await existingRecord(
        existing, for: attempt, baseline: baseline, in: source.reference)
    }
    guard let head = remote[attempt.branchRef] else {
      throw GitWorkspaceError.branchNotFound(baseline.branch, remote: configuration.remote)
    }
    guard head == base else {
      throw WorkspaceHeadMismatch(
        expected: baseline,
        actual: WorkspaceBranchReference(branch: baseline.branch, revision: head)
      )
    }

    let commit = try await attemptCommit(
      attempt, remembered: resolved[1], request: request, in: source.reference)
    try await beforePush()
    do {
      try await push(commit, for: attempt, in: source.reference)
    } catch {
      // Judge by what the remote holds now: the push (or a concurrent retry) may have landed.
      guard !(error is CancellationError) else { throw error }
      let after = try await remoteRefs(
        [attempt.branchRef, attempt.proposalRef], in: source.reference)
      if let existing = after[attempt.proposalRef] {
        let record = try await existingRecord(
          existing, for: attempt, baseline: baseline, in: source.reference)
        try await confirmHead(
          of: existing, for: attempt, baseline: baseline, head: after[attempt.branchRef],
          in: source.reference)
        return record
      }
      if let moved = after[attempt.branchRef], moved != base {
        throw WorkspaceHeadMismatch(
          expected: baseline,
          actual: WorkspaceBranchReference(branch: baseline.branch, revision: moved)
        )
      }
      throw error
    }
    if configuration.headGuard == .clientChecked {
      let after = try await remoteRefs([attempt.branchRef], in: source.reference)
      try await confirmHead(
        of: commit, for: attempt, baseline: baseline, head: after[attempt.branchRef],
        in: source.reference)
    }
    return ProposalRecord(id: attempt.proposalRef, contentRevision: commit, target: baseline)
  }

  /// The record of a proposal that already exists on the remote: this attempt's (same tree,
  /// parent = baseline), or a conflict.
  private func existingRecord(
    _ existing: String, for attempt: ProposalAttempt, baseline: WorkspaceBranchReference,
    in reference: URL
  ) async throws -> ProposalRecord {
    if try await commit(existing, in: reference) == nil {
      try await remote(
        [
          "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "origin",
          "+\(attempt.proposalRef):\(attempt.attemptRef)",
        ],
        in: reference
      )
    }
    let (tree, parents) = try await treeAndParents(of: existing, in: reference)
    guard tree == attempt.tree, parents == [attempt.base] else {
      throw GitWorkspaceError.proposalConflict(
        id: attempt.proposalRef, existingRevision: existing, attemptedTree: attempt.tree
      )
    }
    return ProposalRecord(id: attempt.proposalRef, contentRevision: existing, target: baseline)
  }

  /// The attempt's commit: `remembered` (the commit of the attempt ref) when it has the same
  /// tree, parent and message (a retry makes the same hash), else a new one stamped now and
  /// remembered.
  func attemptCommit(
    _ attempt: ProposalAttempt, remembered: String?, request: ProposalRequest, in reference: URL
  ) async throws -> String {
    let message = attempt.message(for: request)
    if let remembered {
      let (tree, parents) = try await treeAndParents(of: remembered, in: reference)
      let body = try await git.text(["show", "-s", "--format=%B", remembered], in: reference)
      if tree == attempt.tree, parents == [attempt.base],
        body.trimmingCharacters(in: .newlines) == message.trimmingCharacters(in: .newlines)
      {
        return remembered
      }
    }
    let commit = try await git.text(
      ["commit-tree", attempt.tree, "-p", attempt.base, "-F", "-"], in: reference,
      environment: Self.commitDates(configuration.now()), input: Data(message.utf8)
    )
    try await git.run(
      ["update-ref", "-m", "workspace: attempt \(attempt.key)", attempt.attemptRef, commit],
      in: reference
    )
    return commit
  }

  /// One atomic push: create the proposal ref only if it does not exist, together with the
  /// baseline pushed to the target branch under a lease. That lease catches only a branch that
  /// moved before the push connected (git then sees a change and checks it); a move during the
  /// push is never sent to the remote (git skips a ref already at the pushed value), so the
  /// head rule is kept after the push instead (see ``GitHeadGuard``). Remotes without atomic
  /// pushes get the create-only push alone.
  func push(_ commit: String, for attempt: ProposalAttempt, in reference: URL) async throws {
    let create = ["--force-with-lease=\(attempt.proposalRef):", "\(commit):\(attempt.proposalRef)"]
    let guardBranch = [
      "--force-with-lease=\(attempt.branchRef):\(attempt.base)",
      "\(attempt.base):\(attempt.branchRef)",
    ]
    do {
      try await remote(
        ["push", "--porcelain", "--quiet", "--no-verify", "--atomic", "origin"] + [
          create[0], guardBranch[0], create[1], guardBranch[1],
        ],
        in: reference
      )
    } catch let error as GitError where error.message.contains("does not support --atomic") {
      try await remote(
        ["push", "--porcelain", "--quiet", "--no-verify", "origin"] + create, in: reference)
    }
  }
}

/// One publication attempt: its key and the names and values derived from it.
struct ProposalAttempt: Sendable {
  let key: String
  let proposalRef: String
  let attemptRef: String
  let branch: BranchName
  let branchRef: String
  let base: String
  let tree: String

  init(key: UUID, namespace: String, branch: BranchName, base: String, tree: String) {
    self.key = key.uuidString.lowercased()
    self.proposalRef = "\(namespace)/\(self.key)"
    self.attemptRef = Self.attemptRef(for: key)
    self.branch = branch
    self.branchRef = "refs/heads/\(branch)"
    self.base = base
    self.tree = tree
  }

  /// The local ref remembering the commit made for `key`, so a retry pushes the same hash.
  static func attemptRef(for key: UUID) -> String {
    GitOperations.attemptNamespace + key.uuidString.lowercased()
  }

  /// Title, summary, then the trailers reviewers' tools read (`Proposal-Key`,
  /// `Proposal-Target`).
  func message(for request: ProposalRequest) -> String {
    let title = request.title.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingCharacters(in: .whitespaces)
    let summary = request.summary.trimmingCharacters(in: .whitespacesAndNewlines)
    var message = (title.isEmpty ? "Proposal \(key)" : title) + "\n\n"
    if !summary.isEmpty { message += summary + "\n\n" }
    message += "\(Self.keyTrailer): \(key)\n\(Self.targetTrailer): \(branch)\n"
    return message
  }

  static let keyTrailer = "Proposal-Key"
  static let targetTrailer = "Proposal-Target"
}
