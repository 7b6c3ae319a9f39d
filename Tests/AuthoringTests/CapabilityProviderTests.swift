import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

/// The capability provider clients read holds exactly what Authoring validated.
@MainActor
@Suite("AuthoringCapabilityProvider")
struct CapabilityProviderTests {
  @Test("The provider follows admission, invalidation and leaving, in the same turn as the state")
  func followsTheState() async {
    let capability = AuthoringCapabilityProvider()
    let storage = GrantStorage()
    let policy = LockIsolated(AuthoringContext.alice)
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: CallLog())
      client.requestAdmission = { policy.current }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }
    #expect(capability.current == nil)

    await store.send(.requestAuthoring)
    await store.receiveModification { $0 = .admitted(.alice) }
    #expect(capability.current == .alice)
    await store.receive(.delegate(.grantValidated(.alice)))

    await store.send(.authorizationInvalidated) { $0 = .notAdmitted }
    #expect(capability.current == nil)
    await store.receive(.delegate(.grantInvalidated))

    policy.setValue(.bob)
    await store.send(.refreshAdmission)
    await store.receiveModification { $0 = .admitted(.bob) }
    #expect(capability.current == .bob)
    await store.receive(.delegate(.grantValidated(.bob)))

    await store.send(.leaveAuthoring) { $0 = .notAdmitted }
    #expect(capability.current == nil)
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()
  }

  @Test("A late answer for the previous identity never puts a capability in force")
  func lateAnswerNeverPublishes() async {
    let capability = AuthoringCapabilityProvider()
    let aliceAnswer = PendingAnswer<AuthoringContext>()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: GrantStorage(), log: CallLog())
      client.requestAdmission = { try await aliceAnswer.value() }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }

    let request = await store.send(.requestAuthoring)
    await aliceAnswer.arrival()
    await store.send(.authorizationInvalidated)
    aliceAnswer.resolve(.alice)
    await request.finish()
    await store.finish()
    #expect(store.state == .notAdmitted)
    #expect(capability.current == nil)
  }

  @Test("A provider made for a client's tests holds its context until Authoring publishes")
  func inForceForTests() {
    #expect(AuthoringCapabilityProvider(inForce: .alice).current == .alice)
    #expect(AuthoringCapabilityProvider().current == nil)
  }
}
