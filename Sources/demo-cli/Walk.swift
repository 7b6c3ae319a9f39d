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
    if let path {
      narrator.title("demo-cli walk — the whole story, on the system saved in \(path)")
    } else {
      narrator.title("demo-cli walk — the whole story, on a fresh in-memory system")
    }

    narrator.step("App start: restoreAuthorization revalidates a persisted grant")
    await host.start()
    narrator.outcome(.info(executor.admissionLine))
    narrator.outcome(.info(executor.workspaceLine))
    if host.credentials.current.persistedGrant == nil, host.context == nil {
      narrator.note("no grant is persisted on this device yet, so nobody is admitted")
    }

    narrator.step("ada signs in; admission is decided for her session")
    guard await perform(.signIn(username: "ada", password: "lovelace")) != nil else { return false }
    if let context = host.context {
      let persisted = host.credentials.current.persistedGrant == context.grant
      narrator.note(
        "admission: who \(context.identity.rawValue) · capabilities \(Describe.capabilities(context.capabilities))"
          + " · grant \(context.grant.rawValue)" + (persisted ? ", persisted for the next start" : ""))
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
    narrator.note("the working copy was prepared against \(first); edits are compared with it")

    narrator.step("Edit: add an event")
    guard await perform(add(title: "Poetry Evening", date: "2027-03-05", venue: "Old Bookshop")) != nil
    else { return false }

    narrator.step("The ChangeSet against \(first)")
    guard await perform(.diff) != nil else { return false }

    narrator.step("Propose it: the first proposal")
    guard let p1 = await propose("Add the poetry evening") else { return false }
    narrator.note("the record is reported, never installed: the baseline stays \(first)")

    narrator.step("Start a fresh proposal: the working copy goes back to the baseline")
    guard await perform(.fresh) != nil else { return false }

    narrator.step("Another edit, and its ChangeSet")
    let title = differing(\.title, of: "e2", ["Spring Book Fair", "Book Fair"])
    guard await perform(.rename(id: "e2", title: title)) != nil, await perform(.diff) != nil
    else { return false }

    narrator.step("Propose it: a second proposal, independent of \(p1.id), also against \(first)")
    guard let p2 = await propose("Rename the book fair") else { return false }
    narrator.note("\(p2.id) holds only the rename: it does not contain \(p1.id)'s event")

    narrator.step("The reviewer merges \(p1.id)")
    guard await perform(.merge(proposalID: p1.id)) != nil else { return false }
    let merged = await mergedRevision(of: p1.id)
    narrator.note("\(p2.id) stays open against \(first)")

    narrator.step("Refresh Published: install the new head as the baseline")
    guard await perform(.refresh) != nil, let second = host.session?.baseline else { return false }

    narrator.step("Start a fresh proposal from \(second)")
    guard await perform(.fresh) != nil else { return false }

    narrator.step("Edit: reschedule an event, and its ChangeSet")
    let date = differing(\.date, of: "e1", ["2026-12-19", "2026-12-12"])
    guard await perform(.reschedule(id: "e1", date: date)) != nil, await perform(.diff) != nil
    else { return false }

    narrator.step("Propose it: a third proposal, against \(second)")
    guard let p3 = await propose("Move the winter concert") else { return false }

    return await summary(first: first, second: second, merged: merged, p1: p1, p2: p2, p3: p3)
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

  private func propose(_ title: String) async -> ProposalRecord? {
    guard await perform(.propose(title: title)) != nil,
      case .published(let record) = host.state.editing.content.form
    else { return nil }
    return record
  }

  /// On a restored state: install the newest revision and drop edits not yet proposed, so the
  /// story's proposals hold only its own edits.
  private func startClean(from baseline: WorkspaceBranchReference) async -> Bool {
    let head = (try? await host.system.head(of: baseline.branch.rawValue))?.id
    if head != baseline.revision, await perform(.refresh) == nil { return false }
    if let changes = await host.localChanges(), !changes.isEmpty, await perform(.fresh) == nil { return false }
    return true
  }

  /// The first of `candidates` that differs from the event's current value, so the edit is one.
  private func differing(_ field: KeyPath<Event, String>, of id: String, _ candidates: [String]) -> String {
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
    guard case .merged(let revision)? = await host.system.allProposals().first(where: { $0.id == id })?.status
    else { return nil }
    return revision
  }

  private func summary(
    first: WorkspaceBranchReference, second: WorkspaceBranchReference, merged: String?,
    p1: ProposalRecord, p2: ProposalRecord, p3: ProposalRecord
  ) async -> Bool {
    narrator.section("Summary")
    let all = await host.system.allProposals()
    for record in [p1, p2, p3] {
      let status: String =
        switch all.first(where: { $0.id == record.id })?.status {
        case .open?: "open"
        case .merged(let revision)?: "merged into \(revision)"
        case nil: "unknown to the server"
        }
      narrator.summary(Describe.record(record) + " · " + status)
    }
    let head = (try? await host.system.head(of: first.branch.rawValue))?.id ?? "?"
    narrator.summary("\(first.branch) head: \(head) · " + executor.workspaceLine)
    let checks = [
      (
        p1.target == first && p2.target == first,
        "\(p1.id) and \(p2.id) were both created against \(first)"
      ),
      (
        merged != nil && merged == second.revision,
        "\(p1.id) was merged: \(first.branch)@\(merged ?? "?") is the new head"
      ),
      (
        second.branch == first.branch && second.revision != first.revision,
        "the baseline was refreshed from \(first) to \(second)"
      ),
      (p3.target == second, "\(p3.id) was created against \(second)"),
    ]
    for (passed, text) in checks { narrator.check(passed, text) }
    return checks.allSatisfy(\.0)
  }
}
