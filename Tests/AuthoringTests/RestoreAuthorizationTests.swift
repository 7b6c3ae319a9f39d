import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

@MainActor
@Suite("restoreAuthorization")
struct RestoreAuthorizationTests {
  @Test("A valid persisted grant is revalidated: context set, then grantValidated")
  func validPersistedGrant() async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { grant in
        log.record("validate(\(grant.rawValue))")
        return .alice
      }
      $0[AuthoringClient.self] = client
    }

    await store.send(.restoreAuthorization)
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(.delegate(.grantValidated(.alice)))
    await store.finish()

    #expect(store.state.context == .alice)
    #expect(
      log.all == ["clearIncomingSharedGrants", "restorePersistedGrant", "validate(grant-alice)"])
    #expect(storage.persisted == .alice)
  }

  @Test("An invalid persisted grant is discarded from storage and no context is set")
  func invalidPersistedGrant() async {
    let storage = GrantStorage(persisted: .stale)
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { grant in
        log.record("validate(\(grant.rawValue))")
        throw GrantRejected()
      }
      $0[AuthoringClient.self] = client
    }

    await store.send(.restoreAuthorization).finish()
    await store.finish()

    #expect(store.state == .notAdmitted)
    #expect(storage.persisted == nil)
    #expect(
      log.all == [
        "clearIncomingSharedGrants", "restorePersistedGrant", "validate(grant-stale)",
        "discardPersistedGrant(grant-stale)",
      ])
  }

  @Test("An invalid persisted grant that was in force is cleared at once, then discarded")
  func invalidGrantInForce() async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { _ in throw GrantRejected() }
      $0[AuthoringClient.self] = client
    }

    await store.send(.restoreAuthorization) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()
    #expect(storage.persisted == nil)
  }

  @Test("Fail closed: with no persisted grant, a context the state carried in is not kept")
  func carriedContextWithoutPersistedGrant() async {
    let capability = AuthoringCapabilityProvider()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      // validate stays unimplemented: there is nothing to validate.
      $0[AuthoringClient.self] = .storing(in: GrantStorage(), log: CallLog())
      $0[AuthoringCapabilityProvider.self] = capability
    }

    await store.send(.restoreAuthorization) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()
    #expect(store.state.context == nil)
    #expect(capability.current == nil)
  }

  @Test(
    "Fail closed: when the grant cannot be validated (offline), no carried context survives, and the grant stays persisted"
  )
  func carriedContextWhileOffline() async {
    struct Offline: Error {}
    let storage = GrantStorage(persisted: .alice)
    let capability = AuthoringCapabilityProvider()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: CallLog())
      client.validate = { _ in throw Offline() }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }

    await store.send(.restoreAuthorization) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()
    #expect(capability.current == nil)
    #expect(storage.persisted == .alice)
  }

  @Test("A carried context that validates again is in force again: dropped first, then validated")
  func carriedContextRevalidated() async {
    let capability = AuthoringCapabilityProvider()
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: GrantStorage(persisted: .alice), log: CallLog())
      client.validate = { _ in .alice }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }

    await store.send(.restoreAuthorization) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(.delegate(.grantValidated(.alice)))
    await store.finish()
    #expect(capability.current == .alice)
  }

  @Test(
    "Validation applies the admission policy: a refused session is denied and its grant discarded")
  func validationAppliesThePolicy() async {
    let storage = GrantStorage(persisted: .alice)
    let capability = AuthoringCapabilityProvider()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: CallLog())
      client.validate = { _ in throw AdmissionDenied(reason: "Alice may read but not author") }
      $0[AuthoringClient.self] = client
      $0[AuthoringCapabilityProvider.self] = capability
    }

    await store.send(.restoreAuthorization)
    await store.receiveModification { $0 = .denied("Alice may read but not author") }
    await store.finish()
    #expect(capability.current == nil)
    #expect(storage.persisted == nil)
  }

  @Test("Validation that fails for another reason (offline) keeps the persisted grant")
  func offlineValidationKeepsTheGrant() async {
    struct Offline: Error {}
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { _ in throw Offline() }
      $0[AuthoringClient.self] = client
    }

    await store.send(.restoreAuthorization).finish()
    #expect(store.state == Authoring.State())
    #expect(storage.persisted == .alice)
  }

  @Test("No persisted grant: nothing is validated and nothing changes")
  func nothingPersisted() async {
    let storage = GrantStorage()
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      // validate stays unimplemented: calling it would fail the test.
      $0[AuthoringClient.self] = .storing(in: storage, log: log)
    }

    await store.send(.restoreAuthorization).finish()
    #expect(log.all == ["clearIncomingSharedGrants", "restorePersistedGrant"])
  }

  @Test(
    "Incoming shared grants are cleared, and the clear awaited, before anything is read or validated"
  )
  func sharedGrantClearedFirst() async {
    let storage = GrantStorage(persisted: .alice, incoming: [.sharedLink])
    let log = CallLog()
    let clearing = PendingAnswer<Void>()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.clearIncomingSharedGrants = {
        log.record("clear started")
        try? await clearing.value()
        storage.clearIncoming()
        log.record("clear finished")
      }
      // A storage where an incoming shared grant would be picked up by restore: only the
      // ordering keeps it out of the context.
      client.restorePersistedGrant = {
        log.record("restorePersistedGrant")
        return storage.incoming.last ?? storage.persisted
      }
      client.validate = { grant in
        log.record("validate(\(grant.rawValue)) with \(storage.incoming.count) incoming")
        return grant == .sharedLink ? .sharedLink : .alice
      }
      $0[AuthoringClient.self] = client
    }

    await store.send(.restoreAuthorization)
    await clearing.arrival()
    // The clear is still running: nothing has been read or validated, nothing observable changed.
    #expect(log.all == ["clear started"])
    #expect(store.state == .notAdmitted)
    #expect(store.isEffectInFlight(AuthoringOperation.admission))

    clearing.resolve(())
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(.delegate(.grantValidated(.alice)))
    await store.finish()

    #expect(
      log.all == [
        "clear started", "clear finished", "restorePersistedGrant",
        "validate(grant-alice) with 0 incoming",
      ])
    #expect(storage.incoming.isEmpty)
    #expect(store.state.context?.grant != .sharedLink)
  }

  @Test("A shared grant alone never becomes the context through restore")
  func sharedGrantAloneIsNeverRestored() async {
    let storage = GrantStorage(incoming: [.sharedLink])
    let log = CallLog()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.restorePersistedGrant = {
        log.record("restorePersistedGrant")
        return storage.incoming.last ?? storage.persisted
      }
      // validate stays unimplemented: validating anything here fails the test.
      $0[AuthoringClient.self] = client
    }

    await store.send(.restoreAuthorization).finish()
    await store.finish()

    #expect(store.state == .notAdmitted)
    #expect(storage.incoming.isEmpty)
    #expect(log.all == ["clearIncomingSharedGrants", "restorePersistedGrant"])
  }

  @Test("validate answering for another grant is a protocol error: reported, not admitted")
  func validateAnswersForAnotherGrant() async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Authoring.State()) {
        Authoring()
      } withDependencies: {
        var client = AuthoringClient.storing(in: storage, log: log)
        client.validate = { _ in .bob }
        $0[AuthoringClient.self] = client
      }
      await store.send(.restoreAuthorization).finish()
      await store.finish()
      #expect(store.state == .notAdmitted)
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.contains(
        "AuthoringClient.validate answered with a context for another grant") == true)
    #expect(storage.persisted == .alice)
  }
}
