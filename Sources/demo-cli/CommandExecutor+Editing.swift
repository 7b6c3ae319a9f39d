import ComposableWorkspace
import WorkspaceDemoFeature

/// The working copy: listing and editing events, previewing the change set, proposing.
extension CommandExecutor {
  func list() async -> CommandOutcome {
    let session: WorkspaceSession<EventWorkingCopy>
    switch readySession() {
    case .success(let ready): session = ready
    case .failure(let refusal): return .failure(refusal.reason)
    }
    let base = await host.events(at: session.baseline) ?? []
    let baseByID = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var outcome = CommandOutcome.info(
      "working copy at \(Describe.reference(session.baseline)) · \(Describe.count(session.source.events.count, "event"))"
    )
    for event in session.source.events {
      let marker =
        switch baseByID[event.id] {
        case nil: "+"
        case let original? where original != event: "~"
        default: " "
        }
      outcome.detail("\(marker) \(event)")
    }
    let present = Set(session.source.events.map(\.id))
    for event in base where !present.contains(event.id) {
      outcome.detail("- \(event)")
    }
    return outcome
  }

  func add(_ event: Event) async -> CommandOutcome {
    let session: WorkspaceSession<EventWorkingCopy>
    switch editableSession(to: "edit") {
    case .success(let ready): session = ready
    case .failure(let refusal): return .failure(refusal.reason)
    }
    if let existing = session.source.events[id: event.id] {
      return .failure(
        "there is already an event \(existing.id) (“\(existing.title)”); choose another id")
    }
    await host.send(.editing(.content(.add(event))))
    guard host.session?.source.events[id: event.id] == event else {
      return .failure("the event was not added (the workspace changed meanwhile)")
    }
    return .success("added \(event)")
  }

  func rename(_ id: String, _ title: String) async -> CommandOutcome {
    await edit(id) {
      .rename(id: id, title: title)
    } report: { before, after in
      "renamed \(id): “\(before.title)” → “\(after.title)”"
    }
  }

  func reschedule(_ id: String, _ date: String) async -> CommandOutcome {
    await edit(id) {
      .reschedule(id: id, date: date)
    } report: { before, after in
      "rescheduled \(id) “\(after.title)”: \(before.date) → \(after.date)"
    }
  }

  func remove(_ id: String) async -> CommandOutcome {
    let session: WorkspaceSession<EventWorkingCopy>
    switch editableSession(to: "edit") {
    case .success(let ready): session = ready
    case .failure(let refusal): return .failure(refusal.reason)
    }
    guard let event = session.source.events[id: id] else { return .failure(noSuchEvent(id)) }
    await host.send(.editing(.content(.remove(id: id))))
    guard host.session?.source.events[id: id] == nil else {
      return .failure("the event was not removed (the workspace changed meanwhile)")
    }
    return .success("removed \(event)")
  }

  /// Sends an edit of an existing event and reports the event before and after.
  private func edit(
    _ id: String,
    _ action: () -> EventViewer.Action,
    report: (Event, Event) -> String
  ) async -> CommandOutcome {
    let session: WorkspaceSession<EventWorkingCopy>
    switch editableSession(to: "edit") {
    case .success(let ready): session = ready
    case .failure(let refusal): return .failure(refusal.reason)
    }
    guard let before = session.source.events[id: id] else { return .failure(noSuchEvent(id)) }
    await host.send(.editing(.content(action())))
    guard let after = host.session?.source.events[id: id] else {
      return .failure("the event was not changed (the workspace changed meanwhile)")
    }
    return .success(report(before, after))
  }

  private func noSuchEvent(_ id: String) -> String {
    "there is no event \(id) in the working copy; 'list' shows the events"
  }

  func diff() async -> CommandOutcome {
    let session: WorkspaceSession<EventWorkingCopy>
    switch editableSession(to: "compare changes") {
    case .success(let ready): session = ready
    case .failure(let refusal): return .failure(refusal.reason)
    }
    let notice = state.notice
    await host.send(.editing(.content(.request(.captureChanges))))
    if let lost = authorizationLost() { return .failure(lost) }
    if state.notice != notice, let failure = state.notice { return .failure(failure) }
    guard let changes = state.editing.content.preview else {
      return .failure("no change set was captured")
    }
    if changes.isEmpty {
      return .info("no changes against \(Describe.reference(session.baseline))")
    }
    var outcome = CommandOutcome.info("change set against \(Describe.reference(session.baseline)):")
    for line in Describe.changes(changes) { outcome.detail(line) }
    return outcome
  }

  func propose(_ title: String) async -> CommandOutcome {
    if case .failure(let refusal) = readySession() { return .failure(refusal.reason) }
    if case .publishing = state.editing.content.form {
      return .failure("a proposal is still being published; wait for it, then try again")
    }
    await host.send(.editing(.content(.propose(title: title))))
    return publicationOutcome()
  }

  func retry() async -> CommandOutcome {
    guard let request = state.editing.content.form.retryableRequest else {
      return .failure("nothing to retry: the last proposal attempt did not fail")
    }
    if case .failure(let refusal) = readySession() { return .failure(refusal.reason) }
    await host.send(.editing(.content(.retryProposal)))
    var outcome = await resentOutcome()
    if !outcome.failed {
      outcome.info("(same attempt as before: idempotency key \(request.idempotencyKey))")
    }
    return outcome
  }

  /// Reads the proposal form after a publication attempt.
  func publicationOutcome() -> CommandOutcome {
    let baseline = host.session.map { Describe.reference($0.baseline) } ?? "the baseline"
    switch state.editing.content.form {
    case .published(let record):
      return .success("proposal " + Describe.record(record))
    case .noChanges:
      return .failure("nothing to propose: the working copy has no changes against \(baseline)")
    case .failed(let request, let reason)
    where host.pendingPublication?.request.idempotencyKey == request.idempotencyKey:
      // The journal keeps an attempt only while its outcome is unknown (a refusal withdraws
      // it): the service may hold the record. Say so; never "no proposal created".
      return .failure(
        "outcome unknown: \(Describe.abbreviatingHashes(reason)); the attempt is kept, and "
          + "'retry' (or the next run) sends it again with the same key, at most one record")
    case .failed(_, let reason):
      return .failure("no proposal created: \(Describe.abbreviatingHashes(reason))")
    case .interrupted:
      return .failure(
        "the proposal attempt was interrupted before the service answered; 'retry' sends it again (same key, at most one record)"
      )
    case .unconfirmed:
      return .failure(
        "a proposal record was created, but the service's answer was invalid (reported); 'proposals' lists it"
      )
    case .publishing:
      return .failure("the proposal is still being published; 'status' shows the outcome later")
    case .idle:
      return .failure("no proposal was attempted")
    }
  }

  func fresh() async -> CommandOutcome {
    switch editableSession(to: "start a fresh proposal") {
    case .success: break
    case .failure(let refusal): return .failure(refusal.reason)
    }
    let discarded = await host.localChanges()
    // A fresh proposal gives up an interrupted attempt too: 'retry' is no longer offered.
    try? await host.abandonPendingPublication()
    await host.send(.editing(.content(.startFreshProposal)))
    guard let session = host.session else { return .failure("the workspace is no longer ready") }
    var outcome = CommandOutcome.success(
      "fresh proposal: working copy reset to the baseline \(Describe.reference(session.baseline)) · "
        + Describe.count(session.source.events.count, "event"))
    if let discarded, !discarded.isEmpty {
      outcome.info("discarded edits: \(Describe.changeCounts(discarded))")
    }
    return outcome
  }
}

/// Local workspace data: removing it is the application's own operation.
extension CommandExecutor {
  func forget() async -> CommandOutcome {
    let id = state.editing.workspace.id
    let discarded = await host.localChanges()
    let notice = state.notice
    // Its interrupted attempt, if any, goes with the local data.
    try? await host.abandonPendingPublication()
    await host.send(.forgetWorkspace)
    if state.notice != notice, let failure = state.notice { return .failure(failure) }
    var outcome = CommandOutcome.success("local data of workspace \(id) removed")
    if let discarded, !discarded.isEmpty {
      outcome.info("discarded edits: \(Describe.changeCounts(discarded))")
    }
    outcome.info(workspaceLine + "; 'enter' (as an author) prepares a fresh copy")
    return outcome
  }
}
