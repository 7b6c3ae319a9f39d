import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

@MainActor
@Suite("leaveAuthoring and authorizationInvalidated")
struct LeaveAuthoringTests {
  @Test(
    "Leaving clears the context, posts grantInvalidated, then discards and relinquishes the grant")
  func leaveWhileAdmitted() async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      $0[AuthoringClient.self] = .storing(in: storage, log: log)
    }

    await store.send(.leaveAuthoring) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()

    #expect(log.all == ["discardPersistedGrant(grant-alice)", "relinquish(grant-alice)"])
    #expect(storage.persisted == nil)
  }

  @Test("Leaving after a denial clears the denial and calls nothing")
  func leaveWhileDenied() async {
    let store = TestStore(initialState: Authoring.State.denied("Not an organiser.")) { Authoring() }
    await store.send(.leaveAuthoring) { $0 = .notAdmitted }.finish()
  }

  @Test("Leaving while admission is pending cancels it; the late answer is dropped")
  func leaveWhileRequesting() async {
    let storage = GrantStorage()
    let log = CallLog()
    let pending = PendingAnswer<AuthoringContext>()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.requestAdmission = { try await pending.value() }
      $0[AuthoringClient.self] = client
    }

    let request = await store.send(.requestAuthoring)
    await pending.arrival()
    await store.send(.leaveAuthoring).finish()
    #expect(!store.isEffectInFlight(AuthoringOperation.admission))

    pending.resolve(.alice)
    await request.finish()
    await store.finish()
    #expect(store.state == .notAdmitted)
    #expect(storage.persisted == nil)
    #expect(log.all.isEmpty)
  }

  @Test("Invalidation without a context changes nothing and calls nothing")
  func invalidateWhileNotAdmitted() async {
    let store = TestStore(initialState: Authoring.State()) { Authoring() }
    await store.send(.authorizationInvalidated).finish()
  }

  @Test("Invalidation clears a denial given to the previous identity, without an event")
  func invalidateWhileDenied() async {
    let store = TestStore(initialState: Authoring.State.denied("Not an organiser.")) { Authoring() }
    await store.send(.authorizationInvalidated) { $0 = .notAdmitted }.finish()
  }

  @Test("Invalidation discards only the old grant: a newer persisted grant survives")
  func invalidationDiscardIsConditional() async {
    let storage = GrantStorage(persisted: .bob)
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      $0[AuthoringClient.self] = .storing(in: storage, log: log)
    }

    await store.send(.authorizationInvalidated) { $0 = .notAdmitted }.finish()
    await store.receive(.delegate(.grantInvalidated))
    #expect(log.all == ["discardPersistedGrant(grant-alice)"])
    #expect(storage.persisted == .bob)
  }
}
