import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing

@MainActor
@Suite("Authorization loss")
struct AuthorizationTests {
  @Test(
    "interruptAuthorizedWork cancels a suspended publication; a record created anyway is still reported, the session kept"
  )
  func interruptSuspendedPublication() async {
    let publishing = Signal()
    let gate = Gate()
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        await publishing.fire()
        await gate.wait()  // answers even after cancellation, like a slow network
        return Fixture.record
      }
    }

    let publication = await store.send(.publishProposal(Fixture.request))
    await publishing.wait()
    #expect(store.isEffectInFlight(WorkspaceOperation.publication(of: Fixture.id)))

    await store.send(.interruptAuthorizedWork)
    await store.receive(.delegate(.interrupted))
    #expect(!store.isEffectInFlight(WorkspaceOperation.publication(of: Fixture.id)))
    #expect(publication.isCancelled)

    // The client created the record anyway: past the commit point it is reported (never
    // installed), so the form does not retry under a new key and duplicate it.
    await gate.open()
    await store.receive(.delegate(.publication(.published(Fixture.record))))
    await publication.finish()
    await store.finish()
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("a client answering .invalidated tells the parent and cancels the other operations")
  func clientInvalidated() async {
    let capturing = Signal()
    let gate = Gate()
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in
        await capturing.fire()
        await gate.wait()
        return Fixture.edits
      }
      $0.workspaceClient.refreshBaseline = { _, _ in throw WorkspaceAuthorizationError.invalidated }
    }

    let capture = await store.send(.captureChanges)
    await capturing.wait()
    await store.send(.refreshBaseline)
    // The requester of the refresh hears how it ended first.
    await store.receive(.delegate(.refreshFailed(.authorizationInvalidated)))
    await store.receive(.delegate(.authorizationInvalidated))
    await store.receive(.interruptAuthorizedWork)
    await store.receive(.delegate(.interrupted))
    #expect(!store.isEffectInFlight(WorkspaceOperation.capture(of: Fixture.id)))

    await gate.open()
    await capture.finish()
    await store.finish()
    // Losing the grant keeps the ready session; no failure became state.
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("a publication answering .invalidated tells the form, then the parent; the session is kept")
  func publicationInvalidated() async {
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        throw WorkspaceAuthorizationError.invalidated
      }
    }
    await store.send(.publishProposal(Fixture.request))
    await store.receive(.delegate(.publication(.failed(.authorizationInvalidated))))
    await store.receive(.delegate(.authorizationInvalidated))
    await store.receive(.interruptAuthorizedWork)
    await store.receive(.delegate(.interrupted))
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("a preparation answering .invalidated returns to inactive, not preparationFailed")
  func preparationInvalidated() async {
    let store = makeStore(Fixture.inactive) {
      $0.workspaceClient.prepareSource = { _ in throw WorkspaceAuthorizationError.invalidated }
    }
    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification { $0.availability = .inactive }
    await store.receive(.delegate(.authorizationInvalidated))
    await store.finish()
  }

  @Test("an interrupted preparation returns to inactive and its late session is dropped")
  func interruptPreparation() async {
    let preparing = Signal()
    let gate = Gate()
    let attempts = LockIsolated(0)
    let store = makeStore(Fixture.inactive) {
      $0.workspaceClient.prepareSource = { _ in
        let attempt = attempts.withValue { count -> Int in
          count += 1
          return count
        }
        if attempt == 1 {
          await preparing.fire()
          await gate.wait()
        }
        return Fixture.session
      }
    }

    let preparation = await store.send(.prepareSource) { $0.availability = .preparing }
    await preparing.wait()
    await store.send(.interruptAuthorizedWork) { $0.availability = .inactive }
    await store.receive(.delegate(.interrupted))
    await gate.open()
    await preparation.finish()

    // A new grant prepares again.
    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification { $0.availability = .ready(Fixture.session) }
    await store.finish()
  }

  @Test("interruptAuthorizedWork with nothing in flight changes nothing")
  func interruptIdle() async {
    let store = makeStore()
    await store.send(.interruptAuthorizedWork)
    await store.receive(.delegate(.interrupted))
    let inactive = makeStore(Fixture.inactive)
    await inactive.send(.interruptAuthorizedWork)
    await inactive.receive(.delegate(.interrupted))
    await store.finish()
  }
}
