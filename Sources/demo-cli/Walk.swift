import ComposableWorkspace
import WorkspaceDemoFeature

/// The whole story, narrated: app start, sign-in and admission, preparation, an edit and its
/// change set, P1, a fresh proposal, another edit, P2 (independent, against the same revision),
/// the reviewer merges P1, refreshing Published, a fresh proposal, an edit, P3 against the new
/// revision, and a summary that checks the story's promises.
///
/// It drives the host through the same commands the repl runs.
@MainActor
struct Walk {
  let executor: CommandExecutor
  let narrator: Narrator

  var host: DemoHost { executor.host }

  /// Runs the story; `false` when a step failed or a promise did not hold.
  func run(restoredFrom path: String? = nil) async -> Bool {
    let restored = path != nil
    if host.remote != nil {
      narrator.title(
        "demo-cli walk — the whole story, on \(host.place)"
          + (path.map { ", with the state saved in \($0)" } ?? ""))
    } else if let path {
      narrator.title("demo-cli walk — the whole story, on the system saved in \(path)")
    } else {
      narrator.title("demo-cli walk — the whole story, on a fresh in-memory system")
    }

    narrator.step("App start: restoreAuthorization revalidates a persisted grant")
    await host.start()
    narrator.outcome(.info(executor.admissionLine))
    narrator.outcome(.info(executor.workspaceLine))
    if let reconciled = await executor.reconcileInterruptedPublication() {
      narrator.outcome(reconciled)
    }
    if host.credentials.current.persistedGrant == nil, host.context == nil {
      narrator.note("no grant is persisted on this device yet, so nobody is admitted")
    }

    narrator.step("ada signs in; admission is decided for her session")
    guard await perform(.signIn(username: "ada", password: "lovelace")) != nil else { return false }
    if let context = host.context {
      let persisted = host.credentials.current.persistedGrant == context.grant
      narrator.note(
        "admission: who \(context.identity.rawValue) · capabilities \(Describe.capabilities(context.capabilities))"
          + " · grant \(context.grant.rawValue)"
          + (persisted ? ", persisted for the next start" : ""))
    }

    narrator.step("Preparation: the workspace is ready at the baseline")
    guard await perform(.list) != nil, let prepared = host.session?.baseline else { return false }
    if restored {
      narrator.note("the saved workspace came back ready with its edits; it was not re-prepared")
      guard await startClean(from: prepared) else { return false }
    } else {
      narrator.note("the validated grant requested preparation: inactive → preparing → ready")
    }
    guard let first = host.session?.baseline else { return false }
    narrator.note(
      "the working copy was prepared against \(Describe.reference(first)); edits are compared with it"
    )
    if host.remote != nil {
      narrator.note(
        "the baseline is the revision \(first.branch)@\(first.revision) of \(host.place); "
          + "the working copy is local")
    }

    narrator.step("Edit: add an event")
    guard
      await perform(add(title: "Poetry Evening", date: "2027-03-05", venue: "Old Bookshop")) != nil
    else { return false }

    narrator.step("The ChangeSet against \(Describe.reference(first))")
    guard await perform(.diff) != nil else { return false }

    narrator.step("Propose it: the first proposal")
    guard let p1 = await propose("Add the poetry evening", as: "P1") else { return false }
    narrator.note(
      "the record is reported, never installed: the baseline stays \(Describe.reference(first))")

    narrator.step("Start a fresh proposal: the working copy goes back to the baseline")
    guard await perform(.fresh) != nil else { return false }

    narrator.step("Another edit, and its ChangeSet")
    let title = differing(\.title, of: "e2", ["Spring Book Fair", "Book Fair"])
    guard await perform(.rename(id: "e2", title: title)) != nil, await perform(.diff) != nil
    else { return false }

    narrator.step(
      "Propose it: a second proposal, independent of \(p1.label), also against \(Describe.reference(first))"
    )
    guard let p2 = await propose("Rename the book fair", as: "P2") else { return false }
    narrator.note("\(p2.label) holds only the rename: it does not contain \(p1.label)'s event")

    narrator.step("The reviewer merges \(p1.label)")
    guard await perform(.merge(proposalID: p1.record.id)) != nil else { return false }
    let merged = await mergedRevision(of: p1.record.id)
    if let merged, merged == p1.record.contentRevision {
      narrator.note("a fast-forward: \(p1.label)'s own revision is the branch's new head")
    }
    narrator.note("\(p2.label) stays open against \(Describe.reference(first))")
    let announced = await liveNotice(merging: p1, into: merged)

    narrator.step("Refresh Published: install the new head as the baseline")
    guard await perform(.refresh) != nil, let second = host.session?.baseline else { return false }

    narrator.step("Start a fresh proposal from \(Describe.reference(second))")
    guard await perform(.fresh) != nil else { return false }

    narrator.step("Edit: reschedule an event, and its ChangeSet")
    let date = differing(\.date, of: "e1", ["2026-12-19", "2026-12-12"])
    guard await perform(.reschedule(id: "e1", date: date)) != nil, await perform(.diff) != nil
    else { return false }

    narrator.step("Propose it: a third proposal, against \(Describe.reference(second))")
    guard let p3 = await propose("Move the winter concert", as: "P3") else { return false }

    return await summary(
      first: first, second: second, merged: merged, announced: announced, p1: p1, p2: p2, p3: p3)
  }

  /// On a backend with a live channel: waits (at most ten seconds) for its announcement that
  /// `proposal` was merged (into `revision`), and shows it: the server's notice of the merge,
  /// or the branch head seen moving to `revision`. `nil` without a live channel; `false` when
  /// none came.
  private func liveNotice(merging proposal: Proposal, into revision: String?) async -> Bool? {
    guard let live = host.live else { return nil }
    let id = proposal.record.id
    let announcement = await live.wait(timeout: .seconds(10)) { announcement in
      switch announcement {
      case .notice(let notice): notice.kind == .merged && notice.proposal == id
      case .branchHead(let head): head.revision == revision
      case .sessionEnded: false
      }
    }
    switch announcement {
    case .notice(let notice)?:
      narrator.outcome(.info("live: \(notice)"))
      narrator.note("\(live.source) (event \(notice.id))")
    case .branchHead(let head)?:
      let line = Describe.branchHead(head, baseline: host.session?.baseline) ?? "\(head)"
      narrator.outcome(.info("live: \(line)"))
      narrator.note(live.source)
    case .sessionEnded, nil:
      narrator.outcome(.failure("no live notice of \(id)'s merge arrived within 10 s"))
      return false
    }
    return true
  }

  /// Runs one command and narrates it; `nil` when it failed.
  private func perform(_ command: Command) async -> CommandOutcome? {
    let outcome = await executor.execute(command)
    narrator.outcome(outcome)
    if outcome.failed {
      narrator.failure("the walk stopped: '\(command.name)' failed")
      return nil
    }
    return outcome
  }

  /// A proposal of the story: its name in the narration (P1, P2, P3) and its record.
  private struct Proposal {
    let label: String
    let record: ProposalRecord
  }

  /// Proposes the working copy's changes. On a remote, whose record ids are its own (refs,
  /// branches), the story calls the record `label` and a note says which record that is; on
  /// the in-memory system the record's own id is its name.
  private func propose(_ title: String, as label: String) async -> Proposal? {
    guard await perform(.propose(title: title)) != nil,
      case .published(let record) = host.state.editing.content.form
    else { return nil }
    guard host.remote != nil, record.id != label else {
      return Proposal(label: record.id, record: record)
    }
    narrator.note(
      "\(label) is \(record.id): content \(Describe.revision(record.contentRevision)), "
        + "proposed against the baseline \(Describe.reference(record.target))")
    return Proposal(label: label, record: record)
  }

  /// On a restored state: install the newest revision and drop edits not yet proposed, so the
  /// story's proposals hold only its own edits.
  private func startClean(from baseline: WorkspaceBranchReference) async -> Bool {
    let head = await host.catalogue.head(of: baseline.branch)
    if head != baseline.revision, await perform(.refresh) == nil { return false }
    if let changes = await host.localChanges(), !changes.isEmpty, await perform(.fresh) == nil {
      return false
    }
    return true
  }

  /// The first of `candidates` that differs from the event's current value, so the edit is one.
  private func differing(_ field: KeyPath<Event, String>, of id: String, _ candidates: [String])
    -> String
  {
    let current = host.session?.source.events[id: id]?[keyPath: field]
    return candidates.first { $0 != current } ?? candidates.first ?? ""
  }

  /// An `add` of a new event with the first free id `eN`.
  private func add(title: String, date: String, venue: String) -> Command {
    let taken = Set(host.session?.source.events.map(\.id) ?? [])
    let number = (1...).first { !taken.contains("e\($0)") } ?? taken.count + 1
    return .add(id: "e\(number)", title: title, date: date, venue: venue)
  }

  private func mergedRevision(of id: String) async -> String? {
    guard case .merged(let revision)? = await host.catalogue.proposal(named: id)?.status
    else { return nil }
    return revision
  }

  private func summary(
    first: WorkspaceBranchReference, second: WorkspaceBranchReference, merged: String?,
    announced: Bool?, p1: Proposal, p2: Proposal, p3: Proposal
  ) async -> Bool {
    narrator.section("Summary")
    let all = await host.catalogue.allProposals()
    for proposal in [p1, p2, p3] {
      let status: String =
        switch all.first(where: { $0.id == proposal.record.id })?.status {
        case .open?: "open"
        case .merged(let revision)?: "merged into \(Describe.revision(revision))"
        case nil: "unknown to the server"
        }
      let name = proposal.record.id == proposal.label ? "" : proposal.label + " "
      narrator.summary(name + Describe.record(proposal.record) + " · " + status)
    }
    let head = await host.catalogue.head(of: first.branch).map(Describe.revision) ?? "?"
    narrator.summary("\(first.branch) head: \(head) · " + executor.workspaceLine)
    let mergedHead = merged.map {
      Describe.reference(WorkspaceBranchReference(branch: first.branch, revision: $0))
    }
    var checks = [
      (
        p1.record.target == first && p2.record.target == first,
        "\(p1.label) and \(p2.label) were both created against \(Describe.reference(first))"
      ),
      (
        merged != nil && merged == second.revision,
        "\(p1.label) was merged: \(mergedHead ?? "\(first.branch)@?") is the new head"
      ),
      (
        second.branch == first.branch && second.revision != first.revision,
        "the baseline was refreshed from \(Describe.reference(first)) to \(Describe.reference(second))"
      ),
      (p3.record.target == second, "\(p3.label) was created against \(Describe.reference(second))"),
    ]
    if let announced {
      checks.append((announced, "\(p1.label)'s merge was announced live"))
    }
    for (passed, text) in checks { narrator.check(passed, text) }
    return checks.allSatisfy(\.0)
  }
}
