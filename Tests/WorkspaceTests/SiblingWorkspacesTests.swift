import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing

/// Two workspaces side by side in one parent whose composition shares the parent's
/// cancellation-id space — as `Scope` does in TCA — so only the ids themselves (which carry the
/// ``WorkspaceID``) keep the siblings' operations apart. `Effect.map` lifts actions without
/// namespacing ids, so these tests do not depend on how `Scope` treats ids.
struct Siblings: Reducer {
  struct State: Equatable {
    var first = FakeState(id: "first", availability: .ready(Fixture.session))
    var second = FakeState(id: "second", availability: .ready(Fixture.session))
  }

  enum Action: Equatable, Sendable {
    case first(FakeWorkspace.Action)
    case second(FakeWorkspace.Action)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .first(let action):
      FakeWorkspace().reduce(into: &state.first, action: action).map(Action.first)
    case .second(let action):
      FakeWorkspace().reduce(into: &state.second, action: action).map(Action.second)
    }
  }
}

@MainActor
@Suite("Sibling workspaces")
struct SiblingWorkspacesTests {
  @Test("interrupting or re-starting one workspace's operations never cancels its sibling's")
  func siblingsNeverCancelEachOther() async {
    let published = Signal()
    let gates = [Gate(), Gate()]  // one per call: the first workspace's, then the second's
    let calls = LockIsolated(0)
    let store = TestStore(initialState: Siblings.State()) {
      Siblings()
    } withDependencies: {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        let call = calls.withValue {
          $0 += 1
          return $0
        }
        await published.fire()
        await gates[min(call, 2) - 1].wait()
        return Fixture.record
      }
    }
    let first = WorkspaceOperation.publication(of: "first")
    let second = WorkspaceOperation.publication(of: "second")

    await store.send(.first(.publishProposal(Fixture.request)))
    await published.wait()
    #expect(store.isEffectInFlight(first))

    // The sibling starts the same operation (which cancels its own in flight), then is
    // interrupted: the first workspace's publication runs on.
    await store.send(.second(.publishProposal(Fixture.request)))
    await published.wait()
    #expect(store.isEffectInFlight(first) && store.isEffectInFlight(second))
    await store.send(.second(.interruptAuthorizedWork))
    await store.receive(.second(.delegate(.interrupted)))
    #expect(store.isEffectInFlight(first))
    #expect(!store.isEffectInFlight(second))

    // The second's request was on the wire: its record is still reported.
    await gates[1].open()
    await store.receive(.second(.delegate(.publication(.published(Fixture.record)))))
    await gates[0].open()
    await store.receive(.first(.delegate(.publication(.published(Fixture.record)))))
    await store.finish()
  }

  @Test("two workspaces under two Scopes: the same, through the real composition")
  func siblingsUnderScopes() async {
    let published = Signal()
    let gate = Gate()
    let store = TestStore(initialState: Siblings.State()) {
      Scope(state: \Siblings.State.first, action: Self.firstCase) { FakeWorkspace() }
      Scope(state: \Siblings.State.second, action: Self.secondCase) { FakeWorkspace() }
    } withDependencies: {
      $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
      $0.workspaceClient.publishProposal = { _, _, _, _ in
        await published.fire()
        await gate.wait()
        return Fixture.record
      }
    }

    await store.send(.first(.publishProposal(Fixture.request)))
    await published.wait()
    await store.send(.second(.interruptAuthorizedWork))
    await store.receive(.second(.delegate(.interrupted)))
    await gate.open()
    await store.receive(.first(.delegate(.publication(.published(Fixture.record)))))
    await store.finish()
  }

  static let firstCase = CasePath<Siblings.Action, FakeWorkspace.Action>(
    embed: Siblings.Action.first
  ) {
    if case .first(let action) = $0 { action } else { nil }
  }
  static let secondCase = CasePath<Siblings.Action, FakeWorkspace.Action>(
    embed: Siblings.Action.second
  ) {
    if case .second(let action) = $0 { action } else { nil }
  }
}
