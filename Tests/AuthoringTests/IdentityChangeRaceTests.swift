import ComposableAuthoring
import ComposableCore
import ComposableTesting
import Testing

/// When the previous identity's late answer is released, relative to the app's lifecycle sends.
enum Release: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// After `authorizationInvalidated` finished, before `refreshAdmission` for the new identity.
  case afterInvalidation
  /// After `refreshAdmission` for the new identity finished.
  case afterRefresh

  var testDescription: String { rawValue }
}

/// What the previous identity's late answer says.
enum LateAnswer: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case positive
  case negative

  var testDescription: String { rawValue }
}

/// The identity-change race: work for identity A is still in flight when the app sends
/// `authorizationInvalidated` (awaited) and then `refreshAdmission` (awaited) for identity B.
/// A's answer, whenever it arrives, must change nothing: no state, no event, no storage write.
@MainActor
@Suite("Identity change race")
struct IdentityChangeRaceTests {
  @Test(
    "A late admission answer for the previous identity changes nothing",
    arguments: Release.allCases, LateAnswer.allCases)
  func lateAdmissionAnswer(release: Release, answer: LateAnswer) async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let aliceAnswer = PendingAnswer<AuthoringContext>()
    let calls = LockIsolated(0)
    let store = TestStore(initialState: Authoring.State.admitted(.alice)) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      // The client reads the current session: the first call is Alice's, the second Bob's.
      client.requestAdmission = {
        log.record("requestAdmission")
        let call = calls.withValue {
          $0 += 1
          return $0
        }
        return call == 1 ? try await aliceAnswer.value() : .bob
      }
      $0[AuthoringClient.self] = client
    }
    let releaseAlice = {
      switch answer {
      case .positive: aliceAnswer.resolve(.alice)
      case .negative: aliceAnswer.fail(AdmissionDenied(reason: "Alice's membership ended."))
      }
    }

    // Alice's session re-checks admission; the answer is held back.
    let aliceRefresh = await store.send(.refreshAdmission)
    await aliceAnswer.arrival()

    // The session identity changes to Bob.
    await store.send(.authorizationInvalidated) { $0 = .notAdmitted }.finish()
    await store.receive(.delegate(.grantInvalidated))
    #expect(!store.isEffectInFlight(AuthoringOperation.admission))

    if release == .afterInvalidation {
      releaseAlice()
      await aliceRefresh.finish()
      #expect(store.state == .notAdmitted)
    }

    await store.send(.refreshAdmission).finish()
    await store.receiveModification { $0 = .admitted(.bob) }
    await store.receive(.delegate(.grantValidated(.bob)))

    if release == .afterRefresh {
      releaseAlice()
      await aliceRefresh.finish()
    }

    // Exhaustive: any modification or event from Alice's answer would be unasserted and fail.
    await store.finish()
    #expect(store.state == .admitted(.bob))
    #expect(storage.persisted == .bob)
    #expect(
      log.all == [
        "requestAdmission", "discardPersistedGrant(grant-alice)", "requestAdmission",
        "persist(grant-bob)",
      ])
  }

  @Test(
    "A late validation answer for the previous identity's persisted grant changes nothing",
    arguments: Release.allCases, LateAnswer.allCases)
  func lateValidationAnswer(release: Release, answer: LateAnswer) async {
    let storage = GrantStorage(persisted: .alice)
    let log = CallLog()
    let aliceValidation = PendingAnswer<AuthoringContext>()
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { grant in
        log.record("validate(\(grant.rawValue))")
        return try await aliceValidation.value()
      }
      client.requestAdmission = {
        log.record("requestAdmission")
        return .bob
      }
      $0[AuthoringClient.self] = client
    }
    let releaseAlice = {
      switch answer {
      case .positive: aliceValidation.resolve(.alice)
      case .negative: aliceValidation.fail(GrantRejected())
      }
    }

    // The app starts in Alice's session; her persisted grant is being revalidated.
    let restore = await store.send(.restoreAuthorization)
    await aliceValidation.arrival()

    // The session identity changes to Bob before the validation answers.
    await store.send(.authorizationInvalidated).finish()

    if release == .afterInvalidation {
      releaseAlice()
      await restore.finish()
      #expect(store.state == .notAdmitted)
    }

    await store.send(.refreshAdmission).finish()
    await store.receiveModification { $0 = .admitted(.bob) }
    await store.receive(.delegate(.grantValidated(.bob)))

    if release == .afterRefresh {
      releaseAlice()
      await restore.finish()
    }

    await store.finish()
    #expect(store.state == .admitted(.bob))
    #expect(storage.persisted == .bob)
    #expect(
      log.all == [
        "clearIncomingSharedGrants", "restorePersistedGrant", "validate(grant-alice)",
        "requestAdmission", "persist(grant-bob)",
      ])
  }
}
