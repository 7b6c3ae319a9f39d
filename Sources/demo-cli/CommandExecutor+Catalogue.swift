import ComposableWorkspace
import WorkspaceDemoFeature

/// The published catalogue: proposal listing, merging (a reviewer's action), refreshing the
/// baseline, branches and branch selection.
extension CommandExecutor {
  func proposals() async -> CommandOutcome {
    await host.send(.listProposals)
    let listed = state.listedProposals
    var outcome = CommandOutcome.info(
      listed.isEmpty
        ? "the server lists no proposals"
        : "the server lists \(Describe.count(listed.count, "proposal")):"
    )
    for proposal in listed { outcome.detail(Describe.proposal(proposal)) }
    let listedIDs = Set(listed.map(\.id))
    for record in state.editing.content.proposals where !listedIDs.contains(record.id) {
      outcome.info("\(record.id) was created here but is not listed yet (the listing lags behind)")
    }
    return outcome
  }

  func merge(_ id: String) async -> CommandOutcome {
    let before = await host.catalogue.proposal(named: id)
    if let before, before.status != .open {
      return .failure("merge refused: proposal \(id) is not open")
    }
    await host.send(.merge(proposalID: id))
    let after = await host.catalogue.proposal(named: id)
    guard let after, case .merged(let revision) = after.status else {
      return .failure("merge refused: \(state.notice ?? "the proposal was not merged")")
    }
    let head = WorkspaceBranchReference(branch: BranchName(after.branch), revision: revision)
    var outcome = CommandOutcome.success(
      "\(id) merged: \(Describe.reference(head)) is the new head")
    if let session = host.session, session.baseline.branch == head.branch,
      session.baseline.revision != revision
    {
      outcome.info(
        "the baseline \(Describe.reference(session.baseline)) is behind the new head; 'refresh' installs it"
      )
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
    guard let after = host.session?.baseline else {
      return .failure("the workspace is no longer ready")
    }
    guard after != before else {
      return .success("baseline \(Describe.reference(after)) is already the newest revision")
    }
    var outcome = CommandOutcome.success(
      "baseline refreshed: \(Describe.reference(before)) → \(Describe.reference(after))")
    outcome.info(
      "the working copy keeps its edits; 'fresh' starts a proposal from \(Describe.reference(after))"
    )
    return outcome
  }

  func branches() async -> CommandOutcome {
    let names = await host.catalogue.branches()
    let current = host.session?.baseline
    var outcome = CommandOutcome.info("branches:")
    for name in names {
      let head = await host.catalogue.head(of: BranchName(name)).map(Describe.revision) ?? "?"
      var line = "\(name) · head \(head)"
      if let current, current.branch.rawValue == name {
        line += " · baseline \(Describe.reference(current))"
      }
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
      "baseline is now \(Describe.reference(session.baseline)); working copy reset to its "
        + Describe.count(session.source.events.count, "event"))
  }
}
