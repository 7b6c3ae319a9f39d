import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing

@MainActor
@Suite("Baseline refresh and selection")
struct BaselineTests {
  @Test("refresh installs the new revision of the same branch, keeping the source")
  func refresh() async {
    let started = Signal()
    let gate = Gate()
    let store = makeStore {
      $0.workspaceClient.refreshBaseline = { source, baseline in
        #expect(source == Fixture.source)
        #expect(baseline == Fixture.main1)
        await started.fire()
        await gate.wait()
        return WorkspaceSession(source: source, baseline: Fixture.main2)
      }
    }

    await store.send(.refreshBaseline)
    await started.wait()
    // "Refresh running" is an effect id, not a state.
    #expect(store.isEffectInFlight(WorkspaceOperation.refresh(of: Fixture.id)))
    #expect(store.state == Fixture.ready)

    await gate.open()
    await store.receiveModification {
      $0.availability = .ready(WorkspaceSession(source: Fixture.source, baseline: Fixture.main2))
    }
    await store.finish()
    #expect(!store.isEffectInFlight(WorkspaceOperation.refresh(of: Fixture.id)))
    await store.finish()
  }

  @Test("a failed refresh goes to the requesting UI and keeps the session")
  func refreshFailure() async {
    let store = makeStore {
      $0.workspaceClient.refreshBaseline = { _, _ in
        throw FakeError(description: "remote unreachable")
      }
    }
    await store.send(.refreshBaseline)
    await store.receive(
      .delegate(.refreshFailed(WorkspaceFailure(kind: .other, message: "remote unreachable")))
    )
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("selectBranch installs exactly the requested branch")
  func selection() async {
    let store = makeStore {
      $0.workspaceClient.selectBranch = { source, branch in
        #expect(source == Fixture.source)
        #expect(branch == "drafts")
        return WorkspaceSession(source: source, baseline: Fixture.drafts)
      }
    }

    await store.send(.selectBranch("drafts"))
    await store.receiveModification {
      $0.availability = .ready(WorkspaceSession(source: Fixture.source, baseline: Fixture.drafts))
    }
    await store.receive(.delegate(.branchSelected(Fixture.drafts)))
    await store.finish()
  }

  @Test("a failed selection goes to the requesting UI and keeps the session")
  func selectionFailure() async {
    let store = makeStore {
      $0.workspaceClient.selectBranch = { _, _ in throw FakeError(description: "no such branch") }
    }
    await store.send(.selectBranch("drafts"))
    await store.receive(
      .delegate(
        .branchSelectionFailed(
          requested: "drafts", WorkspaceFailure(kind: .other, message: "no such branch")
        ))
    )
    #expect(store.state == Fixture.ready)
    await store.finish()
  }

  @Test("selecting a branch cancels a refresh of the branch it replaces")
  func selectionCancelsRefresh() async {
    let refreshStarted = Signal()
    let refreshGate = Gate()
    let store = makeStore {
      $0.workspaceClient.refreshBaseline = { source, _ in
        await refreshStarted.fire()
        await refreshGate.wait()
        return WorkspaceSession(source: source, baseline: Fixture.main2)
      }
      $0.workspaceClient.selectBranch = { source, _ in
        WorkspaceSession(source: source, baseline: Fixture.drafts)
      }
    }

    let refresh = await store.send(.refreshBaseline)
    await refreshStarted.wait()
    await store.send(.selectBranch("drafts"))
    #expect(!store.isEffectInFlight(WorkspaceOperation.refresh(of: Fixture.id)))
    await store.receiveModification {
      $0.availability = .ready(WorkspaceSession(source: Fixture.source, baseline: Fixture.drafts))
    }
    await store.receive(.delegate(.branchSelected(Fixture.drafts)))

    // The refresh answers late: dropped, the selected branch stays installed.
    await refreshGate.open()
    await refresh.finish()
    await store.finish()
    #expect(store.state.session?.baseline == Fixture.drafts)
    await store.finish()
  }
}
