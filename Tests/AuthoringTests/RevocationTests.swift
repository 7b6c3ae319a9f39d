import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

/// `grantRevoked`: the server stopped honouring the grant in force. Not an identity change.
@MainActor
@Suite("grantRevoked")
struct RevocationTests {
  @Test(
    "Revocation clears the context and posts grantInvalidated; the persisted grant is kept, nothing is relinquished"
  )
  func revokeWhileAdmitted() async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let capability = AuthoringCapabilityProvider()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { _ in .alice }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }
    await store.send(.restoreAuthorization)
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(.delegate(.grantValidated(.alice)))
    #expect(capability.current == .alice)

    await store.send(.grantRevoked) { $0 = .notAdmitted }
    #expect(capability.current == nil)
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()

    #expect(storage.persisted == .alice)
    #expect(log.all == ["clearIncomingSharedGrants", "restorePersistedGrant"])
  }

  @Test("Revocation cancels admission work in flight; its late answer is dropped")
  func revokeCancelsAdmission() async {
    let pending = PendingAnswer<AuthoringContext>()
    let capability = AuthoringCapabilityProvider()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: GrantStorage(persisted: .alice), log: CallLog())
      client.requestAdmission = { try await pending.value() }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }

    let refresh = await store.send(.refreshAdmission)
    await pending.arrival()
    await store.send(.grantRevoked) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    #expect(!store.isEffectInFlight(AuthoringOperation.admission))

    pending.resolve(.alice)
    await refresh.finish()
    await store.finish()
    #expect(store.state == .notAdmitted)
    #expect(capability.current == nil)
  }

  @Test("Revocation without a context changes nothing and posts nothing")
  func revokeWhileNotAdmitted() async {
    let store = TestStore(initialState: Authoring.State.denied("Not an organiser.")) { Authoring() }
    await store.send(.grantRevoked).finish()
    await store.finish()
  }
}
