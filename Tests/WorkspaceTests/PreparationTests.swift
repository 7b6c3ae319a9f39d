import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing

@MainActor
@Suite("Preparation")
struct PreparationTests {
  @Test("prepareSource installs the coherent session the client returns")
  func success() async {
    let calls = LockIsolated<[WorkspaceID]>([])
    let store = makeStore(Fixture.inactive) {
      $0.workspaceClient.prepareSource = { id in
        calls.withValue { $0.append(id) }
        return Fixture.session
      }
    }

    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification { $0.availability = .ready(Fixture.session) }
    #expect(calls.current == [Fixture.id])

    // Already ready: the session (and its baseline) is kept, and the client is not called.
    await store.send(.prepareSource)
    await store.finish()
    #expect(calls.current == [Fixture.id])
    await store.finish()
  }

  @Test("a failed preparation is availability state, and prepareSource retries it")
  func failureThenRetry() async {
    let attempts = LockIsolated(0)
    let store = makeStore(Fixture.inactive) {
      $0.workspaceClient.prepareSource = { _ in
        let attempt = attempts.withValue { count -> Int in
          count += 1
          return count
        }
        if attempt == 1 { throw FakeError(description: "disk full") }
        return Fixture.session
      }
    }

    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification {
      $0.availability = .preparationFailed(WorkspaceFailure(kind: .other, message: "disk full"))
    }

    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification { $0.availability = .ready(Fixture.session) }
    #expect(attempts.current == 2)
    await store.finish()
  }

  @Test("a transient preparation failure is marked so the UI can offer to try again")
  func transientFailureKind() async {
    let store = makeStore(Fixture.inactive) {
      $0.workspaceClient.prepareSource = { _ in throw WorkspaceUnavailableError("offline") }
    }
    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification {
      $0.availability = .preparationFailed(WorkspaceFailure(kind: .transient, message: "offline"))
    }
    await store.finish()
  }

  @Test("prepareSource while preparing starts no second preparation")
  func noDuplicatePreparation() async {
    let calls = LockIsolated(0)
    let started = Signal()
    let gate = Gate()
    let store = makeStore(Fixture.inactive) {
      $0.workspaceClient.prepareSource = { _ in
        calls.withValue { $0 += 1 }
        await started.fire()
        await gate.wait()
        return Fixture.session
      }
    }

    await store.send(.prepareSource) { $0.availability = .preparing }
    await started.wait()
    #expect(store.isEffectInFlight(WorkspaceOperation.preparation(of: Fixture.id)))

    await store.send(.prepareSource)
    await gate.open()
    await store.receiveModification { $0.availability = .ready(Fixture.session) }
    await store.finish()
    #expect(calls.current == 1)
    await store.finish()
  }
}
