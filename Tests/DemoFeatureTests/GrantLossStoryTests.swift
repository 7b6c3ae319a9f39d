import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

@MainActor
@Suite("Application stories: grant loss and re-entry")
struct GrantLossStoryTests {
  let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

  @Test("Leaving keeps the ready session and its edits; re-entry does not prepare again")
  func leaveAndReenter() async {
    let store = makeStoryStore()
    store.exhaustivity = .off
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    await store.send(.editing(.content(.add(harbour))))
    let edited = readySession(events: seedEvents + [harbour], baseline: publishedR1)
    #expect(store.state.editing.workspace.availability == edited)

    store.exhaustivity = .on
    await store.send(.leaveAuthoring)
    await store.receive(.editing(.authoring(.leaveAuthoring))) {
      $0.editing.authoring = Authoring.State(admission: .notAdmitted)
    }
    await store.receive(.editing(.authoring(.delegate(.grantInvalidated))))
    await store.receive(.editing(.workspace(.interruptAuthorizedWork)))
    await store.finish()
    #expect(store.state.editing.workspace.availability == edited)

    // Proposing without a grant is refused in the form; nothing reaches the workspace.
    await store.send(.editing(.content(.propose(title: "Sneaky")))) {
      $0.editing.content.form = .failed(
        ProposalRequest(title: "Sneaky", summary: "", idempotencyKey: .testKey(0)),
        reason: "not authorized to propose; enter authoring first")
    }

    // Re-entry: a new grant is validated; the ready session is kept, not re-prepared.
    let regranted = AuthoringContext(
      identity: AuthoringIdentity(rawValue: "ada"), grant: AuthoringGrant(rawValue: "grant-2"),
      capabilities: [.edit, .publish])
    await store.send(.enterAuthoring)
    await store.receive(.editing(.authoring(.requestAuthoring)))
    await store.receiveModification {
      $0.editing.authoring = Authoring.State(admission: .admitted(regranted))
    }
    await store.receive(.editing(.authoring(.delegate(.grantValidated(regranted)))))
    await store.finish()
    #expect(store.state.editing.workspace.availability == edited)
  }

  @Test("A grant revoked on the server fails the running form and drops the capability")
  func revokedOnServer() async {
    let system = DemoSystem()
    let store = makeStoryStore(system: system)
    store.exhaustivity = .off
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    await store.send(.editing(.content(.add(harbour))))
    await system.revokeAllGrants()
    await store.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    await store.finish()
    #expect(store.state.editing.content.form == .failed(
      ProposalRequest(title: "Add Harbour Lights", summary: "", idempotencyKey: .testKey(0)),
      reason: "authorization was lost; enter authoring again"))
    #expect(store.state.editing.authoring.admission == .notAdmitted)
    #expect(store.state.editing.workspace.availability
      == readySession(events: seedEvents + [harbour], baseline: publishedR1))
    #expect(await system.allProposals().isEmpty)
  }

  @Test("Signing in as someone else invalidates the old grant before admitting the new person")
  func identityChange() async {
    let store = makeStoryStore()
    store.exhaustivity = .off
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    await store.send(.signIn(username: "grace", password: "hopper"))
    await store.finish()
    #expect(store.state.editing.authoring.context?.identity.rawValue == "grace")
    #expect(store.state.editing.workspace.availability.isReady)
  }
}
