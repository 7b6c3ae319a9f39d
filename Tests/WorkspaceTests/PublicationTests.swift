import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing

@MainActor
@Suite("Publication")
struct PublicationTests {
  @Test("publication captures against the installed baseline and reports the record")
  func published() async {
    let published = LockIsolated<[FakeChanges]>([])
    let store = makeStore {
      $0.workspaceClient.captureChanges = { source, baseline in
        #expect(source == Fixture.source)
        #expect(baseline == Fixture.main1)
        return Fixture.edits
      }
      $0.workspaceClient.publishProposal = { source, baseline, changes, request in
        #expect(source == Fixture.source)
        #expect(request == Fixture.request)
        published.withValue { $0.append(changes) }
        return ProposalRecord(id: "P-1", contentRevision: "c1", target: baseline)
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await store.receive(.delegate(.publication(.published(Fixture.record))))
    #expect(published.current == [Fixture.edits])
    // The record is reported, not installed: the ready session is exactly as before.
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("an empty change set ends as noChanges without calling the remote")
  func noChanges() async {
    let publishCalls = LockIsolated(0)
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in FakeChanges(edits: []) }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        publishCalls.withValue { $0 += 1 }
        return Fixture.record
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await store.receive(.delegate(.publication(.noChanges)))
    await store.finish()
    #expect(publishCalls.current == 0)
    await store.finish()
  }

  @Test("a record failure goes to the proposal form; the session stays ready")
  func recordFailure() async {
    let store = makeStore(retry: .none) {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        throw FakeError(description: "proposals are closed for this catalogue")
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await store.receive(
      .delegate(
        .publication(
          .failed(
            WorkspaceFailure(kind: .other, message: "proposals are closed for this catalogue")
          )))
    )
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("a capture failure during publication goes to the form; nothing is published")
  func captureFailure() async {
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in throw FakeError(description: "database locked")
      }
    }
    await store.send(.publishProposal(Fixture.request))
    await store.receive(
      .delegate(.publication(.failed(WorkspaceFailure(kind: .other, message: "database locked"))))
    )
    await store.finish()
  }

  @Test("remote head movement before the record reaches the form with both heads")
  func headMoved() async {
    let moved = WorkspaceBranchReference(branch: "main", revision: "r9")
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, baseline, _, _ in
        throw WorkspaceHeadMismatch(expected: baseline, actual: moved)
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await store.receive(
      .delegate(
        .publication(.headMoved(WorkspaceHeadMismatch(expected: Fixture.main1, actual: moved))))
    )
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("a transient failure is retried after the backoff, with the same idempotency key")
  func retryReusesKey() async {
    let clock = TestClock()
    let keys = LockIsolated<[UUID]>([])
    let store = makeStore {
      $0.clock = clock
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, request in
        let attempt = keys.withValue { keys -> Int in
          keys.append(request.idempotencyKey)
          return keys.count
        }
        if attempt == 1 { throw WorkspaceUnavailableError("gateway timeout") }
        return Fixture.record
      }
    }

    await store.send(.publishProposal(Fixture.request))
    #expect(clock.sleeperCount == 1)
    #expect(keys.current.count == 1)

    // The backoff is on the clock: nothing is retried before it elapses.
    await clock.advance(by: .milliseconds(999))
    #expect(keys.current.count == 1)
    #expect(store.isEffectInFlight(WorkspaceOperation.publication(of: Fixture.id)))

    await clock.advance(by: .milliseconds(1))
    await store.receive(.delegate(.publication(.published(Fixture.record))))
    #expect(keys.current == [Fixture.request.idempotencyKey, Fixture.request.idempotencyKey])
    await store.finish()
  }

  @Test("after retries run out the form gets a transient failure; its retry reuses the key")
  func userRetryReusesKey() async {
    let clock = TestClock()
    let keys = LockIsolated<[UUID]>([])
    let remoteIsUp = LockIsolated(false)
    let store = makeStore(retry: PublicationRetryPolicy(delays: [.seconds(1), .seconds(3)])) {
      $0.clock = clock
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, request in
        keys.withValue { $0.append(request.idempotencyKey) }
        guard remoteIsUp.current else { throw WorkspaceUnavailableError("gateway timeout") }
        return Fixture.record
      }
    }

    await store.send(.publishProposal(Fixture.request))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(clock.sleeperCount == 1 && keys.current.count == 2)
    await clock.advance(by: .seconds(3))
    await store.receive(
      .delegate(
        .publication(.failed(WorkspaceFailure(kind: .transient, message: "gateway timeout"))))
    )
    #expect(keys.current.count == 3)

    // The user retries the same attempt: the form sends the same request again.
    remoteIsUp.setValue(true)
    await store.send(.publishProposal(Fixture.request))
    await store.receive(.delegate(.publication(.published(Fixture.record))))
    #expect(keys.current == Array(repeating: Fixture.request.idempotencyKey, count: 4))
    await store.finish()
  }

  @Test("projection lag after the record is not a failure; the baseline never moves")
  func projectionLagAfterRecord() async {
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, baseline, _, _ in
        ProposalRecord(id: "P-1", contentRevision: "c1", target: baseline)
      }
      // The remote has created the record, but its projection of the branch still answers
      // the old revision: nothing to install, nothing failed.
      $0.workspaceClient.refreshBaseline = { source, baseline in
        WorkspaceSession(source: source, baseline: baseline)
      }
    }

    await store.send(.publishProposal(Fixture.request))
    await store.receive(.delegate(.publication(.published(Fixture.record))))

    await store.send(.refreshBaseline)
    await store.receiveModification()
    await store.finish()
    #expect(store.state == Fixture.ready)

    // The edits are still the workspace's: capturing again still shows them against the same
    // baseline (the proposal was reported, not installed).
    await store.send(.captureChanges)
    await store.receive(.delegate(.changesCaptured(Fixture.edits)))
    await store.finish()
  }

  @Test("captureChanges previews the changes against the installed baseline")
  func preview() async {
    let store = makeStore {
      $0.workspaceClient.captureChanges = { source, baseline in
        #expect(source == Fixture.source)
        #expect(baseline == Fixture.main1)
        return Fixture.edits
      }
    }
    await store.send(.captureChanges)
    await store.receive(FakeWorkspace.delegateCase)
    await store.finish()
  }

  @Test("a capture failure for a preview goes to the requesting UI")
  func previewFailure() async {
    let store = makeStore {
      $0.workspaceClient.captureChanges = { _, _ in throw FakeError(description: "database locked")
      }
    }
    await store.send(.captureChanges)
    await store.receive(
      .delegate(.captureFailed(WorkspaceFailure(kind: .other, message: "database locked")))
    )
    await store.finish()
  }
}
