import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

@MainActor
@Suite("requestAuthoring and refreshAdmission")
struct AdmissionTests {
  private static func store(
    initialState: Authoring.State = Authoring.State(),
    storage: GrantStorage,
    log: CallLog,
    requestAdmission: @escaping @Sendable () async throws -> AuthoringContext
  ) -> TestStore<Authoring.State, Authoring.Action> {
    TestStore(initialState: initialState) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.requestAdmission = {
        log.record("requestAdmission")
        return try await requestAdmission()
      }
      $0[AuthoringClient.self] = client
    }
  }

  @Test("requestAuthoring admitted: grant persisted, context set, then grantValidated")
  func requestAdmitted() async {
    let storage = GrantStorage()
    let log = CallLog()
    let store = Self.store(storage: storage, log: log) { .alice }

    await store.send(.requestAuthoring)
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(.delegate(.grantValidated(.alice)))
    await store.finish()

    #expect(log.all == ["requestAdmission", "persist(grant-alice)"])
    #expect(storage.persisted == .alice)
    #expect(store.state.context?.canPublish == true)
  }

  @Test("requestAuthoring denied: the reason is recorded, no context, no event, nothing persisted")
  func requestDenied() async {
    let storage = GrantStorage()
    let log = CallLog()
    let store = Self.store(storage: storage, log: log) {
      throw AdmissionDenied(reason: "Authoring is limited to event organisers.")
    }

    await store.send(.requestAuthoring)
    await store.receiveModification { $0 = .denied("Authoring is limited to event organisers.") }
    await store.finish()

    #expect(store.state.context == nil)
    #expect(log.all == ["requestAdmission"])
    #expect(storage.persisted == nil)
  }

  @Test("Admission fails closed: an undecided request is a denial that says why")
  func undecidedRequestIsDenied() async {
    struct Offline: Error, CustomStringConvertible {
      var description: String { "The admission service is unreachable." }
    }
    let store = Self.store(storage: GrantStorage(), log: CallLog()) { throw Offline() }

    await store.send(.requestAuthoring)
    await store.receiveModification { $0 = .denied("The admission service is unreachable.") }
    await store.finish()
  }

  @Test("requestAuthoring while admitted does nothing")
  func requestWhileAdmitted() async {
    let log = CallLog()
    let store = Self.store(initialState: .admitted(.alice), storage: GrantStorage(), log: log) {
      .bob
    }

    await store.send(.requestAuthoring).finish()
    #expect(log.all.isEmpty)
  }

  @Test("requestAuthoring after a denial asks again")
  func requestAfterDenial() async {
    let storage = GrantStorage()
    let store = Self.store(initialState: .denied("Not yet."), storage: storage, log: CallLog()) {
      .alice
    }

    await store.send(.requestAuthoring)
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(.delegate(.grantValidated(.alice)))
    await store.finish()
  }

  @Test("refreshAdmission denied while admitted: the context goes, then grantInvalidated")
  func refreshDeniedWhileAdmitted() async {
    let store = Self.store(
      initialState: .admitted(.alice), storage: GrantStorage(persisted: .alice), log: CallLog()
    ) {
      throw AdmissionDenied(reason: "Membership ended.")
    }

    await store.send(.refreshAdmission)
    await store.receiveModification { $0 = .denied("Membership ended.") }
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()
  }

  @Test("refreshAdmission while admitted re-asks and posts grantValidated again")
  func refreshWhileAdmitted() async {
    let refreshed = AuthoringContext(
      identity: .alice, grant: AuthoringGrant(rawValue: "grant-alice-2"), capabilities: [.edit])
    let storage = GrantStorage(persisted: .alice)
    let store = Self.store(initialState: .admitted(.alice), storage: storage, log: CallLog()) {
      refreshed
    }

    await store.send(.refreshAdmission)
    await store.receiveModification { $0 = .admitted(refreshed) }
    await store.receive(.delegate(.grantValidated(refreshed)))
    await store.finish()
    #expect(storage.persisted == refreshed.grant)
  }

  @Test("A newer admission request supersedes a pending one; the older answer is dropped")
  func newerRequestWins() async {
    let first = PendingAnswer<AuthoringContext>()
    let calls = LockIsolated(0)
    let log = CallLog()
    let store = Self.store(storage: GrantStorage(), log: log) {
      let call = calls.withValue {
        $0 += 1
        return $0
      }
      return call == 1 ? try await first.value() : .bob
    }

    let older = await store.send(.requestAuthoring)
    await first.arrival()
    #expect(store.isEffectInFlight(AuthoringOperation.admission))
    await store.send(.refreshAdmission)
    await store.receiveModification { $0 = .admitted(.bob) }
    await store.receive(.delegate(.grantValidated(.bob)))

    first.resolve(.alice)
    await older.finish()
    await store.finish()
    #expect(store.state == .admitted(.bob))
    #expect(log.all == ["requestAdmission", "requestAdmission", "persist(grant-bob)"])
  }

  @Test("The unimplemented test client names the endpoint, and admission fails closed")
  func unimplementedEndpointIsReported() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Authoring.State()) { Authoring() }
      await store.send(.requestAuthoring)
      await store.receiveModification {
        $0 = .denied("unimplemented endpoint AuthoringClient.requestAdmission")
      }
      await store.finish()
    }
    #expect(
      recorder.messages == [
        "Unimplemented: AuthoringClient.requestAdmission was called, but this test did not override it."
      ])
  }
}
