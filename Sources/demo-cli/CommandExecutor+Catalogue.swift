import ComposableWorkspace
import WorkspaceDemoFeature

/// The published catalogue: proposal listing, merging (a reviewer's action), refreshing the
/// baseline, branches and branch selection.
extension CommandExecutor {
  func proposals() async -> CommandOutcome {
    await host.send(.listProposals)
    let listed = state.listedProposals
    var outcome = CommandOutcome.info(
      listed.isEmpty ? "the server lists no proposals" : "the server lists \(Describe.count(listed.count, "proposal")):"
    )
    for proposal in listed { outcome.detail(Describe.proposal(proposal)) }
    let listedIDs = Set(listed.map(\.id))
    for record in state.editing.content.proposals where !listedIDs.contains(record.id) {
      outcome.info("\(record.id) was created here but is not listed yet (the listing lags behind)")
    }
    return outcome
  }

  func merge(_ id: String) async -> CommandOutcome {
    let before = await host.system.allProposals().first { $0.id == id }?.status
    await host.send(.merge(proposalID: id))
    let after = await host.system.allProposals().first { $0.id == id }?.status
    guard before == .open, case .merged(let revision) = after else {
      return .failure("merge refused: \(state.notice ?? "the proposal was not merged")")
    }
    var outcome = CommandOutcome.success(state.notice ?? "\(id) merged into \(revision)")
    if let session = host.session, let proposal = await host.system.allProposals().first(where: { $0.id == id }),
      session.baseline.branch.rawValue == proposal.branch, session.baseline.revision != revision
    {
      outcome.info("the baseline \(session.baseline) is behind the new head; 'refresh' installs it")
    }
    return outcome
  }

  func refresh() async -> CommandOutcome {
    let before: WorkspaceBranchReference
    switch editableSession(to: "refresh the baseline") {
    case .success(let session): before = session.baseline
    case .failure(let refusal): return .failure(refusal.reason)
    }
    let notice = state.notice
    await host.send(.refreshPublished)
    if let lost = authorizationLost() { return .failure(lost) }
    if state.notice != notice, let failure = state.notice { return .failure(failure) }
    guard let after = host.session?.baseline else { return .failure("the workspace is no longer ready") }
    guard after != before else { return .success("baseline \(after) is already the newest revision") }
    var outcome = CommandOutcome.success("baseline refreshed: \(before) → \(after)")
    outcome.info("the working copy keeps its edits; 'fresh' starts a proposal from \(after)")
    return outcome
  }

  func branches() async -> CommandOutcome {
    let names = await host.system.branches()
    let current = host.session?.baseline
    var outcome = CommandOutcome.info("branches:")
    for name in names {
      let head = (try? await host.system.head(of: name))?.id ?? "?"
      var line = "\(name) · head \(head)"
      if let current, current.branch.rawValue == name { line += " · baseline \(current)" }
      outcome.detail(line)
    }
    return outcome
  }

  func select(_ branch: String) async -> CommandOutcome {
    switch editableSession(to: "select a branch") {
    case .success: break
    case .failure(let refusal): return .failure(refusal.reason)
    }
    let notice = state.notice
    await host.send(.selectBranch(BranchName(branch)))
    if let lost = authorizationLost() { return .failure(lost) }
    if state.notice != notice, let failure = state.notice { return .failure(failure) }
    guard let session = host.session, session.baseline.branch.rawValue == branch else {
      return .failure("could not select \(branch)")
    }
    return .success(
      "baseline is now \(session.baseline); working copy reset to its "
        + Describe.count(session.source.events.count, "event"))
  }
}
