import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableWorkspace
import Foundation

/// The writable content of the test workspace: a notebook.
struct Notebook: Equatable, Sendable {
  var text: String
}

/// What changed in the notebook since its baseline.
struct NotebookChanges: WorkspaceChangeSet, Equatable {
  var lines: [String]
  var isEmpty: Bool { lines.isEmpty }
}

/// The wrapped content: edits the notebook and remembers what it saw.
struct NotesEditor: WorkspaceContent {
  typealias Source = Notebook
  typealias ChangeSet = NotebookChanges
  struct Local: Equatable, Sendable {
    var seenIdentity: String?
  }
  typealias State = AuthoringWorkspaceContent<Notebook, Local>

  enum Action: Equatable, Sendable {
    case appeared
    case disappeared
    case type(String)
    case readCapability
  }

  /// The notes editor asks the workspace for nothing.
  static let workspaceRouting = WorkspaceRouting<NotesEditor>.none

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared, .disappeared:
      // Remounting content means nothing to the layer: no authoring or workspace work follows.
      return .none
    case .type(let text):
      state.source?.text += text
      return .none
    case .readCapability:
      state.local.seenIdentity = state.context?.identity.rawValue
      return .none
    }
  }
}

typealias Layer = AuthoringWorkspace<NotesEditor>

let workspaceID: WorkspaceID = "notes"
let baseline = WorkspaceBranchReference(branch: "main", revision: "r1")
let preparedSession = WorkspaceSession(source: Notebook(text: "hello"), baseline: baseline)

func context(_ name: String) -> AuthoringContext {
  AuthoringContext(
    identity: AuthoringIdentity(rawValue: name),
    grant: AuthoringGrant(rawValue: "grant-\(name)"),
    capabilities: [.edit, .publish]
  )
}

/// The layer's state with `admitted` in force and the workspace `availability`.
func layerState(
  admitted: AuthoringContext, _ availability: WorkspaceAvailability<Notebook>
) -> Layer.State {
  Layer.State(
    authoring: Authoring.State(admission: .admitted(admitted)),
    workspace: WorkspaceState(id: workspaceID, availability: availability),
    content: .init()
  )
}

/// A notebook workspace client: the given endpoints, every other one unimplemented.
func notebookClient(
  prepareSource: @escaping @Sendable (WorkspaceID) async throws -> WorkspaceSession<Notebook> =
    unimplemented("prepareSource"),
  refreshBaseline:
    @escaping @Sendable (Notebook, WorkspaceBranchReference) async throws -> WorkspaceSession<
      Notebook
    > =
    unimplemented("refreshBaseline"),
  captureChanges:
    @escaping @Sendable (Notebook, WorkspaceBranchReference) async throws -> NotebookChanges =
    unimplemented("captureChanges"),
  publishProposal:
    @escaping @Sendable (
      Notebook, WorkspaceBranchReference, NotebookChanges, ProposalRequest
    ) async throws -> ProposalRecord = unimplemented("publishProposal")
) -> WorkspaceClient<Notebook, NotebookChanges> {
  WorkspaceClient(
    prepareSource: prepareSource,
    refreshBaseline: refreshBaseline,
    selectBranch: unimplemented("selectBranch"),
    captureChanges: captureChanges,
    publishProposal: publishProposal
  )
}

/// An authoring client that admits `admitted` and stores nothing.
func admittingClient(_ admitted: AuthoringContext) -> AuthoringClient {
  AuthoringClient(
    restorePersistedGrant: { nil },
    clearIncomingSharedGrants: {},
    validate: { _ in admitted },
    requestAdmission: { admitted },
    persist: { _ in },
    discardPersistedGrant: { _ in },
    relinquish: { _ in }
  )
}

/// A client answer the test releases when it chooses; it ignores cancellation, like a request
/// already on the wire.
final class PendingAnswer<Value: Sendable>: Sendable {
  private let state = LockIsolated<
    (value: Value?, waiters: [CheckedContinuation<Value, Never>], arrived: Bool)
  >((nil, [], false))

  /// Suspends the caller until `resolve` (immediately if it already happened).
  func value() async -> Value {
    await withCheckedContinuation { continuation in
      let ready = state.withValue { state -> Value? in
        state.arrived = true
        if let value = state.value { return value }
        state.waiters.append(continuation)
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Whether a caller is waiting (or has waited) for the answer.
  var hasArrived: Bool { state.withValue { $0.arrived } }

  func resolve(_ value: Value) {
    let waiters = state.withValue { state -> [CheckedContinuation<Value, Never>] in
      state.value = value
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }
}

/// Content that proposes and previews through the layer's routing, and remembers the answers.
struct ProposingNotes: WorkspaceContent {
  typealias Source = Notebook
  typealias ChangeSet = NotebookChanges
  struct Local: Equatable, Sendable {
    var outcome: PublicationOutcome?
    var interrupted = false
    var preview: NotebookChanges?
  }
  typealias State = AuthoringWorkspaceContent<Notebook, Local>

  enum Action: Equatable, Sendable {
    case propose(ProposalRequest)
    case preview
    case request(WorkspaceRequest)
    case workspace(WorkspaceEvent)
  }

  static let workspaceRouting = WorkspaceRouting<ProposingNotes>(
    requests: CasePath(embed: Action.request) {
      if case .request(let request) = $0 { request } else { nil }
    },
    outcomes: CasePath(embed: Action.workspace) {
      if case .workspace(let event) = $0 { event } else { nil }
    }
  )

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .propose(let request):
      return .send(.request(.publishProposal(request)))
    case .preview:
      return .send(.request(.captureChanges))
    case .workspace(.publication(let outcome)):
      state.local.outcome = outcome
      return .none
    case .workspace(.interrupted):
      state.local.interrupted = true
      return .none
    case .workspace(.changesCaptured(let changes)):
      state.local.preview = changes
      return .none
    case .request, .workspace:
      return .none
    }
  }
}
