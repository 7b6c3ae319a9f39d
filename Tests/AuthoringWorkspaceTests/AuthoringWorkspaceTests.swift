import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing

@MainActor
@Suite("AuthoringWorkspace transitions")
struct AuthoringWorkspaceTests {
  @Test("A validated grant requests workspace preparation")
  func grantValidatedPreparesWorkspace() async {
    let ada = context("ada")
    let store = TestStore(
      initialState: Layer.State(workspace: WorkspaceState(id: workspaceID), content: .init())
    ) {
      Layer { NotesEditor() }
    } withDependencies: {
      $0[AuthoringClient.self] = admittingClient(ada)
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        prepareSource: { _ in preparedSession })
    }
    await store.send(.authoring(.requestAuthoring))
    await store.receiveModification { $0.authoring = Authoring.State(admission: .admitted(ada)) }
    await store.receive(.authoring(.delegate(.grantValidated(ada))))
    await store.receive(.workspace(.prepareSource)) { $0.workspace.availability = .preparing }
    await store.receiveModification { $0.workspace.availability = .ready(preparedSession) }
    await store.finish()
  }

  @Test("A validated grant after a failed preparation prepares again")
  func grantValidatedAfterPreparationFailure() async {
    let ada = context("ada")
    let failed = WorkspaceAvailability<Notebook>.preparationFailed(
      WorkspaceFailure(message: "disk full"))
    let store = TestStore(
      initialState: Layer.State(
        workspace: WorkspaceState(id: workspaceID, availability: failed), content: .init())
    ) {
      Layer { NotesEditor() }
    } withDependencies: {
      $0[AuthoringClient.self] = admittingClient(ada)
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        prepareSource: { _ in preparedSession })
    }
    await store.send(.authoring(.requestAuthoring))
    await store.receiveModification { $0.authoring = Authoring.State(admission: .admitted(ada)) }
    await store.receive(.authoring(.delegate(.grantValidated(ada))))
    await store.receive(.workspace(.prepareSource)) { $0.workspace.availability = .preparing }
    await store.receiveModification { $0.workspace.availability = .ready(preparedSession) }
    await store.finish()
  }

  @Test("Two layers for two workspaces side by side keep their Authoring and Workspace work apart")
  func siblingLayers() async {
    let ada = context("ada")
    let answers = [PendingAnswer<AuthoringContext>(), PendingAnswer<AuthoringContext>()]
    let calls = LockIsolated(0)
    let store = TestStore(initialState: TwoLayers.State()) {
      Scope(state: \TwoLayers.State.first, action: TwoLayers.firstCase) { Layer { NotesEditor() } }
      Scope(state: \TwoLayers.State.second, action: TwoLayers.secondCase) {
        Layer { NotesEditor() }
      }
    } withDependencies: {
      var client = admittingClient(ada)
      client.requestAdmission = {
        let call = calls.withValue {
          $0 += 1
          return $0
        }
        return await answers[min(call, 2) - 1].value()
      }
      $0[AuthoringClient.self] = client
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        prepareSource: { _ in preparedSession })
    }

    let first = await store.send(.first(.authoring(.requestAuthoring)))
    #expect(answers[0].hasArrived)
    let second = await store.send(.second(.authoring(.requestAuthoring)))
    #expect(answers[1].hasArrived)
    await store.send(.second(.authoring(.leaveAuthoring)))
    // The first layer's admission was neither superseded nor cancelled by its sibling.
    answers[1].resolve(ada)
    answers[0].resolve(ada)
    await second.finish()
    await store.receiveModification {
      $0.first.authoring = Authoring.State(admission: .admitted(ada))
    }
    await store.receive(.first(.authoring(.delegate(.grantValidated(ada)))))
    await store.receive(.first(.workspace(.prepareSource))) {
      $0.first.workspace.availability = .preparing
    }
    await store.receiveModification { $0.first.workspace.availability = .ready(preparedSession) }
    await first.finish()
    await store.finish()
  }

  @Test("Re-validating a grant keeps the ready session; nothing is prepared again")
  func revalidationKeepsReadySession() async {
    let ada = context("ada")
    var edited = preparedSession
    edited.source.text = "hello, edited"
    let store = TestStore(initialState: layerState(admitted: ada, .ready(edited))) {
      Layer { NotesEditor() }
    } withDependencies: {
      $0[AuthoringClient.self] = admittingClient(ada)
      // Any preparation would be reported: the client is unimplemented.
    }
    await store.send(.authoring(.refreshAdmission))
    await store.receiveModification()
    await store.receive(.authoring(.delegate(.grantValidated(ada))))
    await store.finish()
    #expect(store.state.workspace.availability == .ready(edited))
  }

  @Test("A grant invalidated during preparation interrupts it; the late session never lands")
  func invalidatedDuringPreparation() async {
    let ada = context("ada")
    let answer = PendingAnswer<WorkspaceSession<Notebook>>()
    let store = TestStore(initialState: layerState(admitted: ada, .inactive)) {
      Layer { NotesEditor() }
    } withDependencies: {
      $0[AuthoringClient.self] = admittingClient(ada)
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        prepareSource: { _ in await answer.value() })
    }
    await store.send(.workspace(.prepareSource)) { $0.workspace.availability = .preparing }
    #expect(answer.hasArrived)
    await store.send(.authoring(.authorizationInvalidated)) {
      $0.authoring = Authoring.State(admission: .notAdmitted)
    }
    await store.receive(.authoring(.delegate(.grantInvalidated)))
    await store.receive(.workspace(.interruptAuthorizedWork)) {
      $0.workspace.availability = .inactive
    }
    await store.receive(.workspace(.delegate(.interrupted)))
    answer.resolve(preparedSession)
    await store.finish()
    #expect(store.state.workspace.availability == .inactive)
  }

  @Test(
    "A grant invalidated during publication interrupts it; the ready session is kept, a record created anyway is reported"
  )
  func invalidatedDuringPublication() async {
    let ada = context("ada")
    let record = PendingAnswer<ProposalRecord>()
    let store = TestStore(initialState: layerState(admitted: ada, .ready(preparedSession))) {
      Layer { NotesEditor() }
    } withDependencies: {
      $0[AuthoringClient.self] = admittingClient(ada)
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        captureChanges: { _, _ in NotebookChanges(lines: ["+ more"]) },
        publishProposal: { _, _, _, _ in await record.value() })
    }
    let request = ProposalRequest(title: "More", summary: "", idempotencyKey: UUID(0))
    await store.send(.workspace(.publishProposal(request)))
    #expect(record.hasArrived)
    await store.send(.authoring(.authorizationInvalidated)) {
      $0.authoring = Authoring.State(admission: .notAdmitted)
    }
    await store.receive(.authoring(.delegate(.grantInvalidated)))
    await store.receive(.workspace(.interruptAuthorizedWork))
    await store.receive(.workspace(.delegate(.interrupted)))
    // The record was created anyway: past the commit point it is still reported, not lost.
    let created = ProposalRecord(id: "P1", contentRevision: "c1", target: baseline)
    record.resolve(created)
    await store.receive(.workspace(.delegate(.publication(.published(created)))))
    await store.finish()
    #expect(store.state.workspace.availability == .ready(preparedSession))
  }

  @Test("Edits typed while a refresh runs are kept: the refresh's older answer is not installed")
  func editDuringRefreshIsKept() async {
    let ada = context("ada")
    let answer = PendingAnswer<WorkspaceSession<Notebook>>()
    let store = TestStore(initialState: layerState(admitted: ada, .ready(preparedSession))) {
      Layer { NotesEditor() }
    } withDependencies: {
      $0[WorkspaceClient<Notebook, NotebookChanges>.self] = notebookClient(
        refreshBaseline: { _, _ in await answer.value() })
    }
    await store.send(.workspace(.refreshBaseline))
    #expect(answer.hasArrived)
    let typed = WorkspaceSession(source: Notebook(text: "hello, typed"), baseline: baseline)
    await store.send(.content(.type(", typed"))) { $0.workspace.availability = .ready(typed) }
    // The client refreshed the copy it was given, before the edit.
    answer.resolve(
      WorkspaceSession(
        source: Notebook(text: "hello"),
        baseline: WorkspaceBranchReference(branch: "main", revision: "r2")))
    await store.receiveModification()
    await store.receive(
      .workspace(
        .delegate(
          .refreshFailed(
            WorkspaceFailure(
              message:
                "the working copy changed while refreshing; nothing was installed — try again")))))
    await store.finish()
    #expect(store.state.workspace.availability == .ready(typed))
  }

  @Test("Content remounting infers nothing; content sees the capability and edits the source")
  func contentProjection() async {
    let ada = context("ada")
    let store = TestStore(initialState: layerState(admitted: ada, .ready(preparedSession))) {
      Layer { NotesEditor() }
    }
    await store.send(.content(.disappeared))
    await store.send(.content(.appeared))
    await store.send(.content(.readCapability)) { $0.content.seenIdentity = "ada" }
    await store.send(.content(.type(", world"))) {
      $0.workspace.availability = .ready(
        WorkspaceSession(source: Notebook(text: "hello, world"), baseline: baseline))
    }
  }

  @Test("Content cannot write a source when no session is ready; the attempt is reported")
  func contentEditWithoutSession() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(
        initialState: Layer.State(workspace: WorkspaceState(id: workspaceID), content: .init())
      ) {
        Layer { NotesEditor() }
      }
      await store.send(.content(.type("lost?")))
      await store.send(.content(.readCapability))
      #expect(store.state.workspace.availability == .inactive)
    }
    #expect(
      recorder.messages == [
        "Content wrote a source while the workspace is inactive; the edit was ignored. Edit only a ready session's source."
      ])
  }
}

/// Two layers, for two workspaces, side by side.
enum TwoLayers {
  struct State: Equatable {
    var first = Layer.State(workspace: WorkspaceState(id: "first"), content: .init())
    var second = Layer.State(workspace: WorkspaceState(id: "second"), content: .init())
  }

  enum Action: Equatable, Sendable {
    case first(Layer.Action)
    case second(Layer.Action)
  }

  static let firstCase = CasePath<Action, Layer.Action>(embed: Action.first) {
    if case .first(let action) = $0 { action } else { nil }
  }
  static let secondCase = CasePath<Action, Layer.Action>(embed: Action.second) {
    if case .second(let action) = $0 { action } else { nil }
  }
}

extension UUID {
  /// A readable fixed UUID: 00000000-0000-0000-0000-00000000000n.
  init(_ n: Int) {
    self = UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", n))") ?? UUID()
  }
}
