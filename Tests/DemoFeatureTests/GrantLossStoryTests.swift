import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

@MainActor
@Suite("Focused stories (TestStore on the live graph): grant loss, re-entry, identity change")
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
    await store.receive(.editing(.workspace(.delegate(.interrupted))))
    await store.receive(.editing(.content(.workspace(.interrupted))))
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

  @Test(
    "Identity change with a previous grant, exhaustively in order: invalidate (awaited), then admit the new person"
  )
  func identityChangeInOrder() async {
    let credentials = DemoCredentials()
    let store = makeStoryStore(credentials: credentials)
    store.exhaustivity = .off
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    let ready = readySession(events: seedEvents, baseline: publishedR1)
    #expect(store.state.editing.workspace.availability == ready)

    store.skipReceivedActions()
    store.exhaustivity = .on
    let grace = AuthoringContext(
      identity: AuthoringIdentity(rawValue: "grace"), grant: AuthoringGrant(rawValue: "grant-2"),
      capabilities: [.edit, .publish])
    await store.send(.signIn(username: "grace", password: "hopper"))
    await store.receiveModification {
      $0.session = DemoSession(token: "session-2", username: "grace")
    }
    await store.receive(.reconcileIdentity) { $0.reconciledSessionToken = "session-2" }
    await store.receive(.editing(.authoring(.authorizationInvalidated))) {
      $0.editing.authoring = Authoring.State(admission: .notAdmitted)
    }
    await store.receive(.editing(.authoring(.delegate(.grantInvalidated))))
    await store.receive(.editing(.workspace(.interruptAuthorizedWork)))
    await store.receive(.editing(.workspace(.delegate(.interrupted))))
    await store.receive(.editing(.content(.workspace(.interrupted))))
    await store.receive(.editing(.authoring(.refreshAdmission)))
    await store.receiveModification {
      $0.editing.authoring = Authoring.State(admission: .admitted(grace))
    }
    await store.receive(.editing(.authoring(.delegate(.grantValidated(grace)))))
    await store.finish()

    // The ready session is kept (not prepared again); Ada's grant is gone from the device.
    #expect(store.state.editing.workspace.availability == ready)
    #expect(credentials.current.persistedGrant == grace.grant)
    #expect(credentials.capability.current == grace)
  }
}
