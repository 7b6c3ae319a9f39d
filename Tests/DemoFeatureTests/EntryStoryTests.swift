import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

@MainActor
@Suite("Focused stories (TestStore on the live graph): entry")
struct EntryStoryTests {
  @Test("Start, sign in, admission, preparation: ready at the published revision")
  func entry() async {
    let store = makeStoryStore()

    await store.send(.start)
    await store.receive(.editing(.authoring(.restoreAuthorization)))

    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.receiveModification {
      $0.session = DemoSession(token: "session-1", username: "ada")
    }
    await store.receive(.reconcileIdentity) { $0.reconciledSessionToken = "session-1" }
    await store.receive(.editing(.authoring(.authorizationInvalidated)))
    await store.receive(.editing(.authoring(.refreshAdmission)))
    await store.receiveModification {
      $0.editing.authoring = Authoring.State(admission: .admitted(adaContext))
    }
    await store.receive(.editing(.authoring(.delegate(.grantValidated(adaContext)))))
    await store.receive(.editing(.workspace(.prepareSource))) {
      $0.editing.workspace.availability = .preparing
    }
    await store.receiveModification {
      $0.editing.workspace.availability = readySession(events: seedEvents, baseline: publishedR1)
    }
    await store.finish()
  }

  @Test("A wrong password is refused with a clear notice; nothing else happens")
  func wrongPassword() async {
    let store = makeStoryStore()
    await store.send(.signIn(username: "ada", password: "wrong"))
    await store.receiveModification { $0.notice = "wrong password for ada" }
    await store.receive(.reconcileIdentity)
    await store.finish()
  }

  @Test("A reader is signed in but denied authoring; no workspace is prepared")
  func readerIsDenied() async {
    let store = makeStoryStore()
    store.exhaustivity = .off
    await store.send(.signIn(username: "linus", password: "torvalds"))
    await store.finish()
    #expect(store.state.session?.username == "linus")
    #expect(
      store.state.editing.authoring.admission
        == .denied(AdmissionDenied(reason: "Linus may read but not author")))
    #expect(store.state.editing.workspace.availability == .inactive)
  }
}
