import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableWorkspace
import Foundation

// The guide's application, written as a downstream app writes it.

// guide:begin form
/// The proposal form: the end of every attempt, as the requester shows it.
enum ProposalForm: Equatable, Sendable {
  case idle
  case publishing(ProposalRequest)
  case published(ProposalRecord)
  /// Before the commit point: no record from this attempt. Retry with the same request.
  case retryable(ProposalRequest, reason: String)
  /// A record exists, but the service's answer was invalid (reported as an issue).
  case recordUnconfirmed

  /// Every outcome ends the attempt: the form never stays `publishing`.
  mutating func finish(_ outcome: PublicationOutcome) {
    guard case .publishing(let request) = self else {
      // A record that an interrupted attempt created anyway still arrives: keep it.
      if case .published(let record) = outcome { self = .published(record) }
      return
    }
    switch outcome {
    case .published(let record): self = .published(record)
    case .publishedInvalidRecord: self = .recordUnconfirmed
    case .noChanges: self = .idle
    case .headMoved(let mismatch): self = .retryable(request, reason: "\(mismatch)")
    case .failed(let failure): self = .retryable(request, reason: failure.message)
    }
  }

  /// The workspace interrupted its operations (`.interrupted`): an attempt in flight will not
  /// answer. Its request is kept, so the retry sends the same idempotency key.
  mutating func interrupt() {
    guard case .publishing(let request) = self else { return }
    self = .retryable(request, reason: "interrupted before the service answered")
  }
}
// guide:end

// guide:begin content
/// The app's content: edits the working copy and proposes it.
struct EventViewer: WorkspaceContent {
  typealias Source = Catalogue
  typealias ChangeSet = CatalogueChanges
  typealias State = AuthoringWorkspaceContent<Catalogue, Local>

  struct Local: Equatable, Sendable {
    var form = ProposalForm.idle
  }

  enum Action: Equatable, Sendable {
    case rename(id: String, title: String)
    case propose(title: String)
    case retry
    case request(WorkspaceRequest)  // AuthoringWorkspace forwards these to Workspace
    case workspace(WorkspaceEvent)  // and delivers Workspace's outcomes here
  }

  static let workspaceRouting = WorkspaceRouting<EventViewer>(
    requests: CasePath(embed: Action.request) {
      if case .request(let request) = $0 { request } else { nil }
    },
    outcomes: CasePath(embed: Action.workspace) {
      if case .workspace(let event) = $0 { event } else { nil }
    }
  )

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let id, let title):
      state.source?.events[id] = title  // only a ready session's source is writable
      return .none
    case .propose(let title):
      return publish(ProposalRequest(title: title, summary: ""), &state)
    case .retry:
      guard case .retryable(let request, _) = state.local.form else { return .none }
      return publish(request, &state)  // the same request: the same idempotency key
    case .workspace(.publication(let outcome)):
      state.local.form.finish(outcome)
      return .none
    case .workspace(.interrupted):
      state.local.form.interrupt()
      return .none
    case .request, .workspace:
      return .none
    }
  }

  private func publish(_ request: ProposalRequest, _ state: inout State) -> Effect<Action> {
    guard state.context?.canPublish == true, state.session != nil else { return .none }
    state.local.form = .publishing(request)
    return .send(.request(.publishProposal(request)))
  }
}
// guide:end

// guide:begin composition
struct EventApplication: Reducer {
  struct State: Equatable {
    var editing = AuthoringWorkspace<EventViewer>.State(
      workspace: WorkspaceState(id: "events"), content: EventViewer.Local())
  }

  enum Action: Equatable, Sendable {
    case editing(AuthoringWorkspace<EventViewer>.Action)
    case forgetWorkspace
  }

  @Dependency(LocalCopies.self) var localCopies

  var body: some Reducer<State, Action> {
    Scope(state: \.editing, action: .editing) {
      AuthoringWorkspace {
        EventViewer()
      }
    }
    Reduce { state, action in
      switch action {
      case .forgetWorkspace:
        return forget(&state)
      case .editing:
        return .none
      }
    }
  }
}

extension CasePath<EventApplication.Action, AuthoringWorkspace<EventViewer>.Action> {
  static var editing: Self {
    Self(embed: EventApplication.Action.editing) {
      if case .editing(let action) = $0 { action } else { nil }
    }
  }
}
// guide:end

// guide:begin forget
extension EventApplication {
  /// Removing local workspace data is the application's own operation: Workspace keeps a
  /// ready session through grant loss and never deletes anything.
  func forget(_ state: inout State) -> Effect<Action> {
    let id = state.editing.workspace.id
    state.editing.workspace = WorkspaceState(id: id)  // inactive: no session any more
    state.editing.content.form = .idle
    let localCopies = self.localCopies
    return .merge(
      .send(.editing(.workspace(.interruptAuthorizedWork))),  // stop work on the old copy
      .run { _ in localCopies.remove(id) }
    )
  }
}
// guide:end

// guide:begin composition-root
extension EventApplication {
  /// The composition root: the app's concrete clients, installed once.
  static func live(
    server: CatalogueServer, session: AppSession, persistedGrant: LockIsolated<AuthoringGrant?>
  ) -> some Reducer<State, Action> {
    let capability = AuthoringCapabilityProvider()  // Authoring publishes into it
    let copies = LocalCopies()
    let authoringClient = AuthoringClient.catalogue(
      server: server, session: session, persisted: persistedGrant)
    let workspaceClient = WorkspaceClient.catalogue(
      server: server, session: session, capability: capability, copies: copies)
    return EventApplication()
      .dependency(capability)
      .dependency(copies)
      .dependency(authoringClient)
      .dependency(workspaceClient)
  }
}
// guide:end

// guide:begin lifecycle
/// When the application starts: revalidate the persisted grant (it fails closed).
@MainActor
func applicationStarted(_ store: Store<EventApplication.State, EventApplication.Action>) async {
  await store.send(.editing(.authoring(.restoreAuthorization))).finish()
}

/// When the session identity changes: invalidate, and await it, before anything can admit
/// the new identity; then, for a valid session, refresh admission and await that too.
@MainActor
func sessionChanged(
  _ store: Store<EventApplication.State, EventApplication.Action>, isValid: Bool
) async {
  await store.send(.editing(.authoring(.authorizationInvalidated))).finish()
  guard isValid else { return }
  await store.send(.editing(.authoring(.refreshAdmission))).finish()
}
// guide:end
