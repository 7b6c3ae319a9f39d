import ComposableWorkspace
import Foundation

extension FossilWorkspaceClient {
  /// Creates (or, for a retry of the same attempt, finds and completes) the proposal of
  /// `changes`: the branch `<prefix><idempotency key>` from `baseline`, holding one check-in per
  /// changed file, and answers its record — id the branch's name, content revision its newest
  /// check-in, target `baseline`.
  ///
  /// Steps:
  /// 1. The capability, and the server's own view of the user (see the type's documentation).
  /// 2. If the attempt's branch exists, this is a retry (or a restart after a crash anywhere
  ///    after the branch was created): its root must be a child of `baseline` and its
  ///    check-ins this change set's (else ``FossilWorkspaceError/proposalConflict(id:reason:)``);
  ///    the files still missing are checked in (a file Fossil finds unchanged is there
  ///    already). The same record is answered; no second one is ever made.
  /// 3. Otherwise the target branch's newest check-in is compared with `baseline`: another
  ///    head throws `WorkspaceHeadMismatch` (both heads) before anything is written.
  /// 4. Every file is checked in as a dry run on `baseline` with forking disabled, so Fossil
  ///    itself refuses, still before anything is written, a baseline that is no longer a leaf
  ///    of its branch (`WorkspaceHeadMismatch` again), a file outside `fileedit-glob`, or
  ///    content it would not take.
  /// 5. The branch is created from `baseline` (`/json/branch/create`): the commit point.
  /// 6. Each file is checked in on the branch's newest check-in, with forking disabled.
  ///
  /// **Against a concurrent writer.** Fossil has no conditional branch creation, so steps 3–4
  /// and step 5 are separate requests: a check-in on the target branch that lands between the
  /// last dry run and the branch creation (one request's time) is not detected, and the
  /// proposal then targets a baseline that is no longer the head — its record still names
  /// exactly that baseline, and a merge sees the move. Once the branch exists the server
  /// itself keeps the proposal linear: every check-in of step 6 names its parent and Fossil
  /// refuses a parent that is no longer a leaf, so two senders of the same attempt (a retry
  /// racing a request believed lost) can never fork it; the one refused reads the branch again
  /// and finds its files there.
  ///
  /// Fossil 2.21 changes only existing text files over HTTP: a change set that adds or
  /// deletes files is refused before anything is sent
  /// (``FossilWorkspaceError/unsupportedChanges(paths:)``).
  public func publishProposal(
    _ source: FossilWorkingCopy,
    _ baseline: WorkspaceBranchReference,
    _ changes: FossilChangeSet,
    _ request: ProposalRequest
  ) async throws -> ProposalRecord {
    try await authorized(askingServer: false)
    guard !changes.isEmpty else { throw FossilWorkspaceError.emptyChangeSet }
    guard changes.baseline == baseline.revision else {
      throw FossilWorkspaceError.changeSetBaselineMismatch(
        changeSet: changes.baseline, baseline: baseline)
    }
    var edits: [(path: String, content: String, executable: Bool)] = []
    var unsupported: [String] = []
    for change in changes.changes {
      if case .modified(let path, let content, let executable) = change {
        edits.append((path, content, executable))
      } else {
        unsupported.append(change.path)
      }
    }
    guard unsupported.isEmpty else {
      throw FossilWorkspaceError.unsupportedChanges(paths: unsupported)
    }
    let captured = edits
    let branch = configuration.proposalBranch(for: request.idempotencyKey)
    let marker = ProposalMarker(key: request.idempotencyKey, target: baseline, changeSet: changes)
    return try await serialized(source) {
      let store = self.store(source)
      let files = try captured.map { edit in
        FossilRepository.FileContent(
          path: edit.path, content: try store.captured(edit.content, path: edit.path),
          executable: edit.executable)
      }
      return try await self.revokingOnRefusal {
        try await self.authorized(askingServer: true)
        return try await ProposalPublication(
          repository: self.repository, branch: branch, baseline: baseline, files: files,
          request: request, marker: marker
        ).run()
      }
    }
  }
}

/// One publication attempt's steps (see `FossilWorkspaceClient.publishProposal`).
struct ProposalPublication: Sendable {
  let repository: FossilRepository
  let branch: String
  let baseline: WorkspaceBranchReference
  let files: [FossilRepository.FileContent]
  let request: ProposalRequest
  let marker: ProposalMarker

  /// How often the proposal's files are checked in again after finding its branch moved
  /// (by another sender of the same attempt) before the attempt is left to a later retry.
  static let rounds = 5

  func run() async throws -> ProposalRecord {
    if let tip = try await repository.head(of: branch) {
      try await verify(tip)
      return try await complete(from: tip.uuid)
    }
    try await checkHead()
    var effective = 0
    for (index, file) in files.enumerated() {
      switch try await repository.commit(
        file, onto: baseline.revision, comment: comment(index), dryRun: true)
      {
      case .committed: effective += 1
      case .unchanged: continue
      case .staleParent: try await checkHead(refusedByServer: true)
      }
    }
    guard effective > 0 else { throw FossilWorkspaceError.nothingToPropose }
    let created: String
    do {
      created = try await repository.createBranch(branch, from: baseline.revision)
    } catch FossilError.alreadyExists {
      // Another sender of this very attempt created it meanwhile.
      guard let tip = try await repository.head(of: branch) else { throw vanished }
      try await verify(tip)
      created = tip.uuid
    }
    return try await complete(from: created)
  }

  /// Throws `WorkspaceHeadMismatch` when the target's newest check-in is not the baseline.
  /// When Fossil itself refused the baseline as no longer a leaf (`refusedByServer`) and the
  /// newest check-in still is the baseline (a check-in on it dated earlier), throws
  /// ``FossilWorkspaceError/baselineNotALeaf(_:)``.
  private func checkHead(refusedByServer: Bool = false) async throws {
    guard let head = try await repository.head(of: baseline.branch.rawValue) else {
      throw FossilWorkspaceError.branchNotFound(baseline.branch)
    }
    guard head.uuid != baseline.revision else {
      if refusedByServer { throw FossilWorkspaceError.baselineNotALeaf(baseline) }
      return
    }
    throw WorkspaceHeadMismatch(
      expected: baseline,
      actual: WorkspaceBranchReference(branch: baseline.branch, revision: head.uuid))
  }

  /// Checks every file in on the branch's newest check-in, starting from `known`, the newest
  /// this attempt has seen (a branch that moved since refuses it: the next round reads the
  /// head again); answers the record.
  private func complete(from known: String) async throws -> ProposalRecord {
    var tip = known
    for round in 0..<Self.rounds {
      if round > 0 {
        guard let head = try await repository.head(of: branch)?.uuid else { throw vanished }
        tip = head
      }
      var moved = false
      for (index, file) in files.enumerated() where !moved {
        switch try await repository.commit(file, onto: tip, comment: comment(index)) {
        case .committed(let next): tip = next
        case .unchanged: continue
        case .staleParent: moved = true
        }
      }
      if !moved { return ProposalRecord(id: branch, contentRevision: tip, target: baseline) }
    }
    throw FossilUnavailable(
      "the proposal \(branch) kept moving while its files were checked in; try again")
  }

  /// Checks that the existing branch is this attempt's: a child of the baseline, holding at
  /// most this attempt's check-ins, the newest carrying its change set.
  private func verify(_ tip: FossilRepository.CheckIn) async throws {
    var current = tip
    var depth = 0
    while current.tags?.contains(branch) == true {
      guard depth <= files.count, let parent = current.firstParent else {
        throw FossilWorkspaceError.proposalConflict(
          id: branch, reason: "it holds check-ins this attempt does not make")
      }
      current = try await repository.checkIn(parent)
      depth += 1
    }
    guard current.uuid == baseline.revision else {
      throw FossilWorkspaceError.proposalConflict(
        id: branch, reason: "it targets \(current.uuid), not \(baseline)")
    }
    guard depth > 1 else { return }  // only the branch's own root: no file checked in yet
    guard let found = ProposalMarker.parse(tip.comment), found.changes == marker.changes else {
      throw FossilWorkspaceError.proposalConflict(id: branch, reason: "it holds another change set")
    }
  }

  private func comment(_ index: Int) -> String {
    marker.comment(
      title: request.title, summary: request.summary, index: index + 1, count: files.count)
  }

  private var vanished: FossilError {
    .unexpectedAnswer(request: "GET /json/artifact", reason: "the branch \(branch) is gone")
  }
}
