import ComposableCore
import ComposableTesting
import ComposableWorkspace
import XCTest

/// The same feature under XCTest: a failing assertion becomes an XCTest failure.
final class WorkspaceXCTests: XCTestCase {
  @MainActor
  func testPreparationThenPublication() async {
    let keys = LockIsolated<[UUID]>([])
    let store = TestStore(initialState: Fixture.inactive) {
      FakeWorkspace()
    } withDependencies: {
      $0.workspaceClient.prepareSource = { _ in Fixture.session }
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, baseline, _, request in
        keys.withValue { $0.append(request.idempotencyKey) }
        return ProposalRecord(id: "P-7", contentRevision: "c7", target: baseline)
      }
    }

    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification { $0.availability = .ready(Fixture.session) }

    // The form builds its request while reducing: the key comes from the store's uuid.
    let request = withDependencies {
      $0 = store.dependencies
    } operation: {
      ProposalRequest(title: "Autumn schedule", summary: "Two fixes")
    }
    XCTAssertEqual(request.idempotencyKey, UUID(uuidString: "00000000-0000-0000-0000-000000000000"))

    await store.send(.publishProposal(request))
    await store.receive(
      .delegate(
        .publication(
          .published(ProposalRecord(id: "P-7", contentRevision: "c7", target: Fixture.main1))))
    )
    XCTAssertEqual(keys.current, [request.idempotencyKey])
    XCTAssertEqual(store.state, Fixture.ready)
    await store.finish()
  }

  @MainActor
  func testPreparationFailureKeepsNoSession() async {
    let store = TestStore(initialState: Fixture.inactive) {
      FakeWorkspace()
    } withDependencies: {
      $0.workspaceClient.prepareSource = { _ in throw FakeError(description: "checkout failed") }
    }
    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification {
      $0.availability = .preparationFailed(
        WorkspaceFailure(kind: .other, message: "checkout failed"))
    }
    XCTAssertNil(store.state.session)
    await store.finish()
  }
}
