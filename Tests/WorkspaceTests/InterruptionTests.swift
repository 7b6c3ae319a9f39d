import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing

/// A publication interrupted before its record exists still ends for its requester: the
/// interrupting action posts `.interrupted` at once (even for an attempt that never started),
/// and the form retries its own request (same idempotency key).
@MainActor
@Suite("Interrupted publication")
struct InterruptionTests {
  @Test("interruptAuthorizedWork during publishProposal: the requester hears .interrupted, once")
  func interruptedWhilePublishing() async {
    let publishing = Signal()
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        await publishing.fire()
        // A request that honours cancellation and never answers on its own.
        try await TestClock().sleep(for: .seconds(1))
        return Fixture.record
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await publishing.wait()
    await store.send(.interruptAuthorizedWork)
    await store.receive(.delegate(.interrupted))
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("an interruption during the retry backoff is .interrupted; no further call is made")
  func interruptedDuringBackoff() async {
    let clock = TestClock()
    let calls = LockIsolated(0)
    let store = makeStore {
      $0.clock = clock
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        calls.withValue { $0 += 1 }
        throw WorkspaceUnavailableError("gateway timeout")
      }
    }

    await store.send(.publishProposal(Fixture.request))
    #expect(clock.sleeperCount == 1)
    await store.send(.interruptAuthorizedWork)
    await store.receive(.delegate(.interrupted))
    await store.finish()
    #expect(calls.current == 1)
  }

  @Test("an interruption during capture is .interrupted and never calls publishProposal")
  func interruptedWhileCapturing() async {
    let capturing = Signal()
    let gate = Gate()
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in
        await capturing.fire()
        await gate.wait()  // answers although cancelled
        return Fixture.edits
      }
      // publishProposal stays unimplemented: calling it after the interruption would be reported.
    }

    await store.send(.publishProposal(Fixture.request))
    await capturing.wait()
    await store.send(.interruptAuthorizedWork)
    await gate.open()
    await store.receive(.delegate(.interrupted))
    await store.finish()
  }

  @Test(
    "a newer publishProposal supersedes the older: the older's late answer is dropped, the newer answers"
  )
  func supersededAttempt() async {
    let first = Signal()
    let second = Gate()
    let calls = LockIsolated(0)
    let newer = ProposalRequest(
      title: "Autumn schedule, again", summary: "", idempotencyKey: Fixture.request.idempotencyKey)
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        let call = calls.withValue {
          $0 += 1
          return $0
        }
        if call == 1 {
          await first.fire()
          try await TestClock().sleep(for: .seconds(1))
        } else {
          await second.wait()
        }
        return Fixture.record
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await first.wait()
    await store.send(.publishProposal(newer))
    await second.open()
    await store.receive(.delegate(.publication(.published(Fixture.record))))
    await store.finish()
  }

  @Test(
    "an interruption in the same turn as publishProposal: the attempt never runs, its requester still hears"
  )
  func interruptedBeforeTheAttemptStarted() async {
    let heard = LockIsolated<[FakeWorkspace.Action.Delegate]>([])
    let calls = LockIsolated(0)
    let store = Store(initialState: Fixture.ready) {
      FakeWorkspace()
      Reduce<FakeState, FakeWorkspace.Action> { _, action in
        if case .delegate(let event) = action { heard.withValue { $0.append(event) } }
        return .none
      }
    } withDependencies: {
      $0.workspaceClient.captureChanges = { _, _ in
        calls.withValue { $0 += 1 }
        return Fixture.edits
      }
    }
    // No suspension between the two: the publication's task has not begun when it is cancelled.
    let publication = store.send(.publishProposal(Fixture.request))
    let interruption = store.send(.interruptAuthorizedWork)
    await publication.finish(timeout: .seconds(15))
    await interruption.finish(timeout: .seconds(15))
    #expect(heard.current == [.interrupted])
    #expect(calls.current == 0)
    #expect(store.state == Fixture.ready)
  }
}
