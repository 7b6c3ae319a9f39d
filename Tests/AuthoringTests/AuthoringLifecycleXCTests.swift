import ComposableAuthoring
import ComposableCore
import ComposableTesting
import XCTest

/// The application's lifecycle story, end to end, under XCTest.
final class AuthoringLifecycleXCTests: XCTestCase {
  @MainActor
  func testStartIdentityChangeDenialAndReentry() async {
    let storage = GrantStorage(persisted: .alice, incoming: [.sharedLink])
    let log = CallLog()
    // The admission policy's answer for the current session, changed as the story moves on.
    let policy = LockIsolated<Result<AuthoringContext, AdmissionDenied>>(
      .failure(AdmissionDenied(reason: "Bob is not an organiser.")))
    let store = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      var client = AuthoringClient.storing(in: storage, log: log)
      client.validate = { grant in
        log.record("validate(\(grant.rawValue))")
        guard grant == .alice else { throw GrantRejected() }
        return .alice
      }
      client.requestAdmission = {
        log.record("requestAdmission")
        return try policy.current.get()
      }
      $0[AuthoringClient.self] = client
    }

    // Start: shared grant dropped, Alice's persisted grant revalidated.
    await store.send(.restoreAuthorization)
    await store.receiveModification { $0 = .admitted(.alice) }
    await store.receive(CasePath.delegate.appending(.grantValidated))
    XCTAssertEqual(storage.incoming, [])

    // Identity changes to Bob, whom the policy refuses.
    await store.send(.authorizationInvalidated) { $0 = .notAdmitted }.finish()
    await store.receive(.delegate(.grantInvalidated))
    await store.send(.refreshAdmission).finish()
    await store.receiveModification { $0 = .denied("Bob is not an organiser.") }

    // Bob is made an organiser and asks again.
    policy.setValue(.success(.bob))
    await store.send(.requestAuthoring).finish()
    await store.receiveModification { $0 = .admitted(.bob) }
    await store.receive(.delegate(.grantValidated(.bob)))

    // Bob leaves.
    await store.send(.leaveAuthoring) { $0 = .notAdmitted }
    await store.receive(.delegate(.grantInvalidated))
    await store.finish()

    XCTAssertNil(storage.persisted)
    XCTAssertEqual(
      log.all,
      [
        "clearIncomingSharedGrants", "restorePersistedGrant", "validate(grant-alice)",
        "discardPersistedGrant(grant-alice)", "requestAdmission", "requestAdmission",
        "persist(grant-bob)", "discardPersistedGrant(grant-bob)", "relinquish(grant-bob)",
      ])
  }
}
