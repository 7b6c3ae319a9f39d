import ComposableWorkspace
import Foundation

extension FossilWorkspaceClient {
  /// Creates (or, for a retry of the same attempt, finds) the proposal of `changes`: one
  /// check-in on the new branch `<prefix><idempotency key>` off exactly `baseline`, holding
  /// exactly the captured bytes (line ends, binary and empty files, added and removed files,
  /// executable bits), made by `fossil commit` in the local clone and sent with `fossil push`;
  /// answers its record — id the branch's name, content revision that check-in, target
  /// `baseline`.
  ///
  /// Steps:
  /// 1. The capability, and the server's own view of the user (see the type's documentation).
  /// 2. `fossil pull` into the clone.
  /// 3. If the attempt's branch exists (a retry, or a restart after a crash anywhere after the
  ///    local commit), its check-in must be a child of `baseline` carrying this change set
  ///    (else ``FossilWorkspaceError/proposalConflict(id:reason:)``); it is pushed again (a
  ///    no-op when the server has it) and its record answered. No second one is ever made.
  /// 4. Otherwise the target branch's newest check-in must be `baseline` (else
  ///    `WorkspaceHeadMismatch` with both heads, before anything is written).
  /// 5. A scratch check-out of `baseline` receives the captured files (added ones are named to
  ///    `fossil add`, removed ones to `fossil rm`); `fossil commit --branch` makes the check-in in the clone
  ///    (a change set that changes nothing is ``FossilWorkspaceError/nothingToPropose``);
  ///    `fossil push` sends it. The server is then
  ///    asked for the check-in: a push the server refused (fossil exits 0 on "not authorized
  ///    to write") never passes for a proposal.
  /// 6. The server is asked for the target's head again.
  ///
  /// **Against a concurrent writer.** A proposal is a branch of its own: nothing it does can
  /// move the target, and a check-in that moves the target cannot change the proposal. Fossil
  /// has no conditional push, so a check-in landing on the target between step 4 and the push
  /// is not prevented; step 6 sees it, and the call throws
  /// ``FossilWorkspaceError/headMovedDuringPublication(id:revision:expected:actual:)`` instead
  /// of answering a record (the proposal exists and targets exactly `baseline`; a retry of the
  /// same attempt answers it, as for any proposal whose target moved since it was made).
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
    let branch = configuration.proposalBranch(for: request.idempotencyKey)
    let marker = ProposalMarker(key: request.idempotencyKey, target: baseline, changeSet: changes)
    return try await serialized(source) {
      let store = self.store(source)
      var files: [ProposalPublication.File] = []
      for change in changes.changes {
        switch change {
        case .added(let path, let content, let executable),
          .modified(let path, let content, let executable):
          files.append(
            .init(
              path: path, content: try store.captured(content, path: path),
              executable: executable))
        case .deleted(let path):
          files.append(.init(path: path, content: nil, executable: false))
        }
      }
      let captured = files
      return try await self.revokingOnRefusal {
        let context = try await self.authorized(askingServer: true)
        return try await ProposalPublication(
          clone: self.clone, repository: self.repository, branch: branch, baseline: baseline,
          files: captured, request: request, marker: marker, author: context.identity.rawValue
        ).run()
      }
    }
  }
}

/// One publication attempt's steps (see `FossilWorkspaceClient.publishProposal`).
struct ProposalPublication: Sendable {
  /// A file of the proposal: its captured bytes, or `nil` content for a removed file.
  struct File: Sendable {
    var path: String
    var content: Data?
    var executable: Bool
  }

  let clone: FossilClone
  let repository: FossilRepository
  let branch: String
  let baseline: WorkspaceBranchReference
  let files: [File]
  let request: ProposalRequest
  let marker: ProposalMarker
  let author: String

  func run() async throws -> ProposalRecord {
    try await clone.pull()
    let heads = try await clone.heads(of: [branch, baseline.branch.rawValue])
    if let existing = heads[branch] {
      try verify(existing)
      try await send(existing.uuid)
      return record(existing.uuid)
    }
    guard let head = heads[baseline.branch.rawValue] else {
      throw FossilWorkspaceError.branchNotFound(baseline.branch)
    }
    guard head.uuid == baseline.revision else {
      throw WorkspaceHeadMismatch(
        expected: baseline,
        actual: WorkspaceBranchReference(branch: baseline.branch, revision: head.uuid))
    }
    let made = try await clone.withCheckout(of: baseline.revision) { checkout in
      // The check-out holds the baseline's files: a file it lacks is added (whatever the change
      // set calls it), by name, so dotfiles and files the ignore-glob setting matches are too.
      let added = files.filter { file in
        file.content != nil
          && !FileManager.default.fileExists(
            atPath: checkout.appendingPathComponent(file.path).path)
      }.map(\.path)
      try write(into: checkout)
      try await clone.fossil.track(
        added: added, removed: files.filter { $0.content == nil }.map(\.path), in: checkout)
      return try await clone.commit(
        in: checkout,
        comment: marker.comment(
          title: request.title, summary: request.summary, index: 1, count: 1),
        user: author, branch: branch)
    }
    try await clone.push()
    // Both questions are asked after the push, together: the server holds the check-in, and
    // the target's head is still the baseline.
    async let held: Void = confirm(made)
    async let headAfter = repository.head(of: baseline.branch.rawValue)
    try await held
    try confirm(head: try await headAfter, after: made)
    return record(made)
  }

  private func record(_ revision: String) -> ProposalRecord {
    ProposalRecord(id: branch, contentRevision: revision, target: baseline)
  }

  /// Writes the captured files into the scratch check-out (removed files are deleted).
  private func write(into checkout: URL) throws {
    let store = WorkingCopyStore(
      copy: FossilWorkingCopy(files: checkout, folder: checkout, server: ""))
    for file in files {
      if let content = file.content {
        try store.write(content, to: file.path, executable: file.executable)
      } else {
        try store.remove(file.path)
      }
    }
  }

  /// Pushes the clone and confirms the server holds `revision` on the proposal's branch.
  private func send(_ revision: String) async throws {
    try await clone.push()
    try await confirm(revision)
  }

  /// Confirms the server holds `revision` on the proposal's branch (fossil exits 0 on a push
  /// the server refused).
  private func confirm(_ revision: String) async throws {
    guard let held = try await repository.checkInIfAny(revision),
      held.tags?.contains(branch) == true
    else {
      throw FossilUnavailable(
        "fossil push ended, but the server does not hold the proposal \(branch) yet; try again")
    }
  }

  /// Step 6: the target's head as the server answered it once the proposal was there.
  private func confirm(head: FossilRepository.CheckIn?, after revision: String) throws {
    guard let head else { throw FossilWorkspaceError.branchNotFound(baseline.branch) }
    guard head.uuid != baseline.revision else { return }
    throw FossilWorkspaceError.headMovedDuringPublication(
      id: branch, revision: revision, expected: baseline,
      actual: WorkspaceBranchReference(branch: baseline.branch, revision: head.uuid))
  }

  /// Checks that the existing branch is this attempt's: one check-in, a child of the
  /// baseline, carrying this change set.
  private func verify(_ existing: FossilClone.CheckIn) throws {
    guard existing.parent == baseline.revision else {
      throw FossilWorkspaceError.proposalConflict(
        id: branch, reason: "it targets \(existing.parent ?? "nothing"), not \(baseline)")
    }
    guard let found = ProposalMarker.parse(existing.comment), found.changes == marker.changes
    else {
      throw FossilWorkspaceError.proposalConflict(id: branch, reason: "it holds another change set")
    }
  }
}
