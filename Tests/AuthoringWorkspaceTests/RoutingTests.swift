import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing

@MainActor
@Suite("Content alone, routing and revocation")
struct RoutingTests {
  @Test("A content feature has its own TestStore: its state is built with the public initializer")
  func contentAlone() async {
    let ada = context("ada")
    let store = TestStore(
      initialState: AuthoringWorkspaceContent(
        context: ada,
        workspace: WorkspaceState(id: workspaceID, availability: .ready(preparedSession)),
        local: NotesEditor.Local()
      )
    ) {
      NotesEditor()
    }
    await store.send(.readCapability) { $0.local.seenIdentity = "ada" }
    await store.send(.type(", alone")) { $0.source?.text = "hello, alone" }
    #expect(store.state.session?.source == Notebook(text: "hello, alone"))
    // The workspace itself is read-only to content: only its session's source was edited.
    #expect(store.state.workspace.session == preparedSession)
  }

  @Test("The layer routes the content's request to Workspace and the outcome back to the content")
  func publicationIsRouted() async {
    let ada = context("ada")
    let record = ProposalRecord(id: "P1", contentRevision: "c1", target: baseline)
    let request = ProposalRequest(title: "More", summary: "", idempotencyKey: UUID(1))
    let store = TestStore(initialState: proposingState(admitted: ada)) {
      AuthoringWorkspace { ProposingNotes() }
    } withDependencies: {
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        captureChanges: { _, _ in NotebookChanges(lines: ["+ more"]) },
        publishProposal: { _, _, _, _ in record })
    }

    await store.send(.content(.propose(request)))
    await store.receive(.content(.request(.publishProposal(request))))
    await store.receive(.workspace(.publishProposal(request)))
    await store.receive(.workspace(.delegate(.publication(.published(record)))))
    await store.receive(.content(.workspace(.publication(.published(record))))) {
      $0.content.outcome = .published(record)
    }
    await store.finish()
  }

  @Test("A preview is routed too, whoever asked for it: every outcome reaches the content")
  func previewIsRouted() async {
    let changes = NotebookChanges(lines: ["+ more"])
    let store = TestStore(initialState: proposingState(admitted: context("ada"))) {
      AuthoringWorkspace { ProposingNotes() }
    } withDependencies: {
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        captureChanges: { _, _ in changes })
    }

    await store.send(.workspace(.captureChanges))
    await store.receive(.workspace(.delegate(.changesCaptured(changes))))
    await store.receive(.content(.workspace(.changesCaptured(changes)))) {
      $0.content.preview = changes
    }
    await store.finish()
  }

  @Test("An interruption reaches the content, so a form waiting for an answer stops waiting")
  func interruptionIsRouted() async {
    let ada = context("ada")
    let request = ProposalRequest(title: "More", summary: "", idempotencyKey: UUID(2))
    let publishing = LockIsolated(false)
    let store = TestStore(initialState: proposingState(admitted: ada)) {
      AuthoringWorkspace { ProposingNotes() }
    } withDependencies: {
      $0[AuthoringClient.self] = admittingClient(ada)
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        captureChanges: { _, _ in NotebookChanges(lines: ["+ more"]) },
        publishProposal: { _, _, _, _ in
          publishing.setValue(true)
          // A request that honours cancellation and never answers on its own.
          try await TestClock().sleep(for: .seconds(1))
          return ProposalRecord(id: "never", contentRevision: "c0", target: baseline)
        })
    }

    await store.send(.content(.propose(request)))
    await store.receive(.content(.request(.publishProposal(request))))
    await store.receive(.workspace(.publishProposal(request)))
    #expect(publishing.current)
    await store.send(.authoring(.leaveAuthoring)) {
      $0.authoring = Authoring.State(admission: .notAdmitted)
    }
    await store.receive(.authoring(.delegate(.grantInvalidated)))
    await store.receive(.workspace(.interruptAuthorizedWork))
    await store.receive(.workspace(.delegate(.interrupted)))
    await store.receive(.content(.workspace(.interrupted))) {
      $0.content.interrupted = true
    }
    await store.finish()
  }

  @Test(
    "A server-side revocation reaches Authoring through the layer: the capability goes, the persisted grant stays"
  )
  func revocationIsRouted() async {
    let ada = context("ada")
    let calls = LockIsolated<[String]>([])
    let capability = AuthoringCapabilityProvider()
    var authoringClient = admittingClient(ada)
    authoringClient.discardPersistedGrant = { grant in
      calls.withValue { $0.append("discard \(grant.rawValue)") }
    }
    authoringClient.relinquish = { grant in
      calls.withValue { $0.append("relinquish \(grant.rawValue)") }
    }
    let store = TestStore(initialState: layerState(admitted: ada, .ready(preparedSession))) {
      Layer { NotesEditor() }
    } withDependencies: { [authoringClient] in
      $0[AuthoringClient.self] = authoringClient
      $0[AuthoringCapabilityProvider.self] = capability
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        refreshBaseline: { _, _ in throw WorkspaceAuthorizationError.invalidated })
    }

    await store.send(.workspace(.refreshBaseline))
    await store.receive(
      .workspace(
        .delegate(
          .refreshFailed(
            WorkspaceFailure(WorkspaceAuthorizationError.invalidated)))))
    await store.receive(.workspace(.delegate(.authorizationInvalidated)))
    await store.receive(.authoring(.grantRevoked)) {
      $0.authoring = Authoring.State(admission: .notAdmitted)
    }
    await store.receive(.authoring(.delegate(.grantInvalidated)))
    await store.receive(.workspace(.interruptAuthorizedWork))
    await store.receive(.workspace(.delegate(.interrupted)))
    await store.finish()
    #expect(capability.current == nil)
    #expect(calls.current.isEmpty)
    #expect(store.state.workspace.availability == .ready(preparedSession))
  }

  private func proposingState(admitted: AuthoringContext)
    -> AuthoringWorkspace<ProposingNotes>.State
  {
    AuthoringWorkspace<ProposingNotes>.State(
      authoring: Authoring.State(admission: .admitted(admitted)),
      workspace: WorkspaceState(id: workspaceID, availability: .ready(preparedSession)),
      content: .init()
    )
  }
}
