import ComposableAuthoring
import WorkspaceDemoFeature

/// Sign-in, sign-out, entering and leaving authoring, status.
extension CommandExecutor {
  func signIn(_ username: String, _ password: String) async -> CommandOutcome {
    let previous = state.session?.token
    await host.send(.signIn(username: username, password: password))
    guard let session = state.session, session.token != previous else {
      return .failure("sign-in refused: \(state.notice ?? "no reason given")")
    }
    var outcome = CommandOutcome.success("signed in as \(Describe.session(session))")
    switch state.editing.authoring.admission {
    case .admitted:
      outcome.success(admissionLine)
      outcome.info(workspaceLine)
      // On a backend whose sessions do not outlive a run (a demo server's cookies, a Fossil
      // login) admission comes only with this sign-in: an attempt interrupted in the previous
      // run is sent again now.
      if let reconciled = await reconcileInterruptedPublication() {
        outcome.lines += reconciled.lines
      }
    case .denied(let denial):
      outcome.info("authoring denied: \(denial.reason); signed in read-only")
    case .notAdmitted:
      outcome.info(admissionLine)
    }
    return outcome
  }

  func signOut() async -> CommandOutcome {
    guard let session = state.session else {
      return .failure("not signed in; nothing to sign out of")
    }
    await host.send(.signOut)
    var outcome = CommandOutcome.success("signed out \(session.username)")
    outcome.info(admissionLine)
    if state.editing.workspace.session != nil {
      outcome.info(workspaceLine + " (kept on this device)")
    }
    return outcome
  }

  func enter() async -> CommandOutcome {
    guard state.session != nil else {
      return .failure("not signed in; sign in first (admission is decided for a session)")
    }
    if let context = state.editing.authoring.context, state.editing.workspace.session != nil {
      return .success("already in authoring as \(context.identity.rawValue)")
    }
    await host.send(.enterAuthoring)
    switch state.editing.authoring.admission {
    case .admitted:
      var outcome = CommandOutcome.success(admissionLine)
      outcome.info(workspaceLine)
      return outcome
    case .denied(let denial):
      return .failure("authoring denied: \(denial.reason)")
    case .notAdmitted:
      return .failure("admission was not decided; try 'enter' again")
    }
  }

  func leave() async -> CommandOutcome {
    guard let context = state.editing.authoring.context else {
      return .failure("not in authoring; nothing to leave")
    }
    await host.send(.leaveAuthoring)
    var outcome = CommandOutcome.success(
      "left authoring: grant \(context.grant.rawValue) given up")
    if state.editing.workspace.session != nil {
      outcome.info(workspaceLine + " (kept; 'enter' to edit or propose again)")
    }
    return outcome
  }

  func status() async -> CommandOutcome {
    var outcome = CommandOutcome()
    if let session = state.session {
      outcome.info("session: \(Describe.session(session))")
    } else {
      outcome.info("session: signed out")
    }
    outcome.info(admissionLine)
    outcome.info(workspaceLine)
    if let session = host.session, let changes = await host.localChanges() {
      outcome.info(
        "edits against \(Describe.reference(session.baseline)): \(Describe.changeCounts(changes))")
    }
    outcome.info("proposal form: " + Describe.form(state.editing.content.form))
    if let pending = host.pendingPublication {
      outcome.info("interrupted publication: " + Describe.intent(pending))
    }
    let records = state.editing.content.proposals
    outcome.info(records.isEmpty ? "proposals created here: none" : "proposals created here:")
    for record in records { outcome.detail(Describe.record(record)) }
    if let notice = state.notice { outcome.info("last notice: \(notice)") }
    return outcome
  }
}
