import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import WorkspaceDemoFeature

/// Runs repl commands against the demo application's store. Each command sends its action,
/// awaits it (and the work it starts), then reads the state to report one result line (or a
/// few). Bad requests are refused before anything is sent, with one line saying why.
@MainActor
final class CommandExecutor {
  let host: DemoHost
  /// Whether what the backend's live channel announced is shown after each command (the repl
  /// shows it; the walk waits for the one notice it narrates).
  var reportsLiveNotices = false

  init(host: DemoHost) {
    self.host = host
  }

  var state: WorkspaceDemoFeature.State { host.state }

  /// Writes the ready working copy through to the backend's storage, when it keeps one there;
  /// why it could not, or `nil`.
  private func keepWorkingCopy() async -> String? {
    guard let keep = host.keepWorkingCopy, let session = host.session else { return nil }
    do {
      try await keep(session.source)
      return nil
    } catch {
      return "the working copy could not be written to \(host.backend.placeDescription): \(error)"
    }
  }

  /// Runs `command`. Issues the feature reports while it runs become a failure line.
  func execute(_ command: Command) async -> CommandOutcome {
    let collector = IssueCollector()
    // A session the server ended since the last command is the app's state before this one.
    let before = await announcements()
    var outcome = await withIssueReporters([collector]) {
      await self.run(command)
    }
    if let failure = await keepWorkingCopy() { outcome.fail(failure) }
    outcome.lines = before.lines + outcome.lines + (await announcements()).lines
    let issues = collector.drain()
    // A reported problem means the command did not do what its result lines may claim.
    if !issues.isEmpty { outcome.lines.removeAll { $0.tone == .success } }
    for issue in issues {
      outcome.fail(
        "internal problem: " + issue.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
    return outcome
  }

  private func run(_ command: Command) async -> CommandOutcome {
    switch command {
    case .signIn(let username, let password): await signIn(username, password)
    case .signOut: await signOut()
    case .enter: await enter()
    case .leave: await leave()
    case .status: await status()
    case .list: await list()
    case .add(let id, let title, let date, let venue):
      await add(Event(id: id, title: title, date: date, venue: venue))
    case .rename(let id, let title): await rename(id, title)
    case .reschedule(let id, let date): await reschedule(id, date)
    case .remove(let id): await remove(id)
    case .diff: await diff()
    case .propose(let title): await propose(title)
    case .retry: await retry()
    case .fresh: await fresh()
    case .forget: await forget()
    case .proposals: await proposals()
    case .merge(let id): await merge(id)
    case .discuss(let id, let text): await discuss(id, text: text)
    case .refresh: await refresh()
    case .branches: await branches()
    case .select(let branch): await select(branch)
    case .help(let topic): CommandHelp.outcome(topic: topic)
    case .quit: CommandOutcome(quits: true)
    }
  }

  // MARK: Preconditions

  /// The ready session, or the reason there is none.
  func readySession() -> Result<WorkspaceSession<EventWorkingCopy>, Refusal> {
    switch state.editing.workspace.availability {
    case .ready(let session): .success(session)
    case .inactive:
      .failure(Refusal("the workspace is not ready (inactive); sign in as an author first"))
    case .preparing:
      .failure(Refusal("the workspace is not ready yet (preparing)"))
    case .preparationFailed(let failure):
      .failure(
        Refusal(
          "the workspace is not ready (preparation failed: \(failure.message)); 'leave' then 'enter' to try again"
        ))
    }
  }

  /// The validated capability allowing `capability`, or the reason there is none.
  func authoring(_ capability: AuthoringCapabilities, to verb: String) -> Refusal? {
    guard state.session != nil else { return Refusal("not signed in; sign in before you \(verb)") }
    switch state.editing.authoring.admission {
    case .admitted(let context) where context.capabilities.contains(capability):
      return nil
    case .admitted(let context):
      return Refusal("\(context.identity.rawValue)'s grant does not allow you to \(verb)")
    case .denied(let denial):
      return Refusal("authoring was denied (\(denial.reason)); you cannot \(verb)")
    case .notAdmitted:
      return Refusal("not admitted to authoring; 'enter' before you \(verb)")
    }
  }

  /// Ready and allowed to `verb`: the session, or the refusal.
  func editableSession(to verb: String) -> Result<WorkspaceSession<EventWorkingCopy>, Refusal> {
    readySession().flatMap { session in
      if let refusal = authoring(.edit, to: verb) { return .failure(refusal) }
      return .success(session)
    }
  }

  /// After a command that needed the grant: the reason, when the server stopped honouring it
  /// meanwhile (the workspace then drops admission and tells the requesting UI nothing else).
  func authorizationLost() -> String? {
    guard state.editing.authoring.context == nil else { return nil }
    return "the authoring grant is no longer valid; 'enter' to be admitted again"
  }

  /// The line describing the workspace now.
  var workspaceLine: String {
    "workspace: " + Describe.availability(state.editing.workspace.availability)
  }

  /// The line describing admission now.
  var admissionLine: String {
    "authoring: " + Describe.admission(state.editing.authoring.admission)
  }
}

/// Why a command cannot run now.
struct Refusal: Error, Equatable, Sendable {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
