import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import WorkspaceDemoFeature
import WorkspaceJournal

/// The running demo application: the device's credentials and the store
/// `makeWorkspaceDemoStore` builds over a backend's clients (the in-memory system's own, a Git
/// remote's catalogue and workspace with accounts in memory, or a demo server's or a Fossil
/// server's everything — sign-in and admission included). Both the walk and the repl drive it.
@MainActor
final class DemoHost {
  typealias State = WorkspaceDemoFeature.State
  typealias Action = WorkspaceDemoFeature.Action

  let credentials: DemoCredentials
  let store: Store<State, Action>
  /// Where the catalogue and the workspace live.
  let backend: any DemoBackend
  /// The tool's own reads of the catalogue (markers, summaries, the reviewer's view).
  let catalogue: any CatalogueReader
  /// The publication attempts whose outcome the state file does not hold yet (every backend's
  /// workspace client is journaled; with `--state`, in `FILE.journal`).
  let journal: PublicationJournal
  /// What the backend announces between commands (a demo server's live channel, a Fossil
  /// server's watched head); `nil` for a backend that announces nothing.
  let live: (any LiveChannel)?
  /// The proposals' review discussion, for a backend that keeps one (the Fossil forum).
  let discussion: (any ProposalDiscussion)?
  /// Writes the working copy through to the backend's storage after a command (a working
  /// database outside tools read); `nil` when the backend stores it only at workspace calls.
  let keepWorkingCopy: (@Sendable (EventWorkingCopy) async throws -> Void)?
  /// How the in-memory system's commits are made durable (with `--state`: the state file is
  /// written, the system with it), like a server's before it answers; `nil` keeps nothing.
  private let systemCommits = LockIsolated<(@Sendable () async throws -> Void)?>(nil)

  /// A host on `backend` with `credentials`, starting from `initialState`. Nothing is sent
  /// yet: call ``start()``.
  init(
    backend: any DemoBackend = MemoryBackend(),
    credentials: DemoCredentials = DemoCredentials(),
    initialState: State = State(),
    journal: PublicationJournal = PublicationJournal()
  ) {
    self.credentials = credentials
    self.backend = backend
    self.journal = journal
    // A ready session in the initial state (reopened from a file) is the client's working copy.
    let clients = backend.clients(
      credentials: credentials,
      workingCopies: initialState.editing.workspace.session.map { [$0] } ?? [])
    self.catalogue = clients.reader
    self.live = clients.live
    self.discussion = clients.discussion
    self.keepWorkingCopy = clients.keepWorkingCopy
    var application = clients.application
    if backend.remote == nil {
      // The in-memory system is this process's remote: a record it created exists only once
      // it is saved, so it answers only then (as a server answers after its commit).
      let publish = application.workspace.publishProposal
      application.workspace.publishProposal = {
        [systemCommits] source, baseline, changes, request in
        let record = try await publish(source, baseline, changes, request)
        try await systemCommits.current?()
        return record
      }
    }
    application.workspace = application.workspace.journaling(
      journal, owner: credentials.capability, workspace: { $0.workspace },
      checkpoint: CrashInjection.journalCheckpoint)
    self.store = makeWorkspaceDemoStore(application, initialState: initialState)
  }

  /// A host restored from a state file and its journal: the system from its snapshot, the
  /// session and the persisted grant as saved, the workspace as saved (a ready session keeps
  /// its edits and its baseline) and authoring not admitted — ``start()`` revalidates the
  /// persisted grant. A record the journal kept but the file does not hold yet joins the
  /// proposals (``settleJournal()`` then lets the journal forget it, once saved). An
  /// interrupted publication comes back as the proposal form's interrupted attempt, so `retry`
  /// sends the same request (see ``CommandExecutor/reconcileInterruptedPublication()``). On a
  /// backend whose sessions do not survive a run (a server's cookies), it starts signed out.
  convenience init(
    restoring file: StateFile, journal: PublicationJournal = PublicationJournal(),
    backend: (any DemoBackend)? = nil
  ) {
    // Without a backend: the in-memory system the file saved.
    let backend = backend ?? MemoryBackend(system: file.restoredSystem)
    let session = backend.keepsSessionsAcrossRuns ? file.session : nil
    var content = EventViewer.Local()
    content.proposals = file.proposals
    for entry in journal.entries {
      if let record = entry.record, !content.proposals.contains(record) {
        content.proposals.append(record)
      }
    }
    if let pending = journal.pending.last(where: { $0.workspace == file.workspace.id }) {
      content.form = .interrupted(pending.request)
    }
    self.init(
      backend: backend,
      credentials: DemoCredentials(
        DemoCredentials.Values(session: session, persistedGrant: file.persistedGrant)),
      initialState: State(
        session: session,
        editing: WorkspaceDemoFeature.Editing.State(workspace: file.workspace, content: content)
      ),
      journal: journal
    )
  }

  /// Makes the in-memory system's commits durable with `save` (see `systemCommits`).
  func persistSystemCommits(with save: @escaping @Sendable () async throws -> Void) {
    systemCommits.setValue(save)
  }

  /// The in-memory system the backend keeps (accounts, and everything for the in-memory
  /// backend), saved with the state; `nil` when the server keeps it all.
  var system: DemoSystem? { backend.system }

  /// The Git remote or the server the catalogue lives on, if it is not the in-memory system.
  var remote: String? { backend.remote }

  /// Where the demo runs, as the backend describes it: `an in-memory system`, `the Git remote
  /// PATH`, `the demo server URL`, `the Fossil server URL`.
  var place: String { backend.placeDescription }

  /// Stops what the backend runs on its own (its live channel's connection or polling).
  func close() async {
    await live?.close()
  }

  /// The application's state now.
  var state: State { store.state }

  /// The ready workspace session, if any.
  var session: WorkspaceSession<EventWorkingCopy>? { state.editing.workspace.session }

  /// The validated authoring capability, if any.
  var context: AuthoringContext? { state.editing.authoring.context }

  /// The app started: revalidates a persisted grant (and keeps a ready workspace).
  func start() async {
    await send(.start)
  }

  /// Sends `action` and awaits its work, including what its effects set off in turn
  /// (admission after sign-in, preparation after a validated grant…).
  func send(_ action: Action) async {
    await store.send(action).finish()
  }

  /// What `--state` saves now.
  func snapshot() async -> StateFile {
    let values = credentials.current
    return StateFile(
      system: await system?.snapshot(),
      session: values.session,
      persistedGrant: values.persistedGrant,
      workspace: state.editing.workspace,
      proposals: state.editing.content.proposals,
      remote: remote,
      backend: remote == nil ? nil : backend.name
    )
  }

  /// The publication attempt of this workspace whose outcome is not known, if any.
  var pendingPublication: PublicationIntent? {
    journal.pending.last { $0.workspace == state.editing.workspace.id }
  }

  /// Lets the journal forget the records the state now holds: call it after the state was
  /// saved (without `--state`, at once — nothing outlives the run either way).
  func settleJournal() async throws {
    let kept = Set(state.editing.content.proposals)
    for entry in journal.entries {
      if let record = entry.record, kept.contains(record) {
        try await journal.acknowledge(entry.intent.key)
      }
    }
  }

  /// Gives up the pending attempt of this workspace (a fresh proposal, forgotten local data).
  func abandonPendingPublication() async throws {
    guard let pending = pendingPublication else { return }
    try await journal.acknowledge(pending.key)
  }

  /// The events of one revision, read from the catalogue (for markers and summaries).
  func events(at reference: WorkspaceBranchReference) async -> [Event]? {
    await catalogue.events(at: reference)
  }

  /// What the working copy changed against its baseline, computed locally (no client call).
  func localChanges() async -> EventChangeSet? {
    guard let session, let base = await events(at: session.baseline) else { return nil }
    return EventChangeSet.between(baseline: base, working: Array(session.source.events))
  }
}
