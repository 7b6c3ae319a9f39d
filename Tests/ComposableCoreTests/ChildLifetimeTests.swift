import ComposableCore
import ComposableTesting
import Testing

/// A child whose only effect runs until cancelled.
private struct Poller: Reducer {
  struct State: Equatable, Identifiable { let id: Int }
  enum Action: Sendable, Equatable { case start }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let name = "poller \(state.id)"
    return .run { [log] _ in await sleepUntilCancelled(recording: log, as: name) }
  }
}

private struct Parent: Reducer {
  struct State: Equatable {
    var detail: Poller.State?
    var rows: IdentifiedArray<Poller.State> = []
  }
  enum Action: Sendable, Equatable {
    case detail(Poller.Action)
    case rows(IdentifiedAction<Int, Poller.Action>)
    case closeDetail
    case removeRow(Int)
    /// Removes the child from an effect, with `state.modify`: no reducer sees the removal.
    case closeDetailFromEffect
    case removeRowFromEffect(Int)
    /// Replaces the child, within one reduce, by a new one with `id`.
    case replaceDetail(id: Int)
    /// Removes the element and adds a new one under the same id, within one reduce.
    case replaceRow(Int)
  }
  let log: Log<String>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .closeDetail: state.detail = nil
      case .removeRow(let id): state.rows.remove(id: id)
      case .closeDetailFromEffect:
        return .run(modifying: State.self) { _, state in await state.modify { $0.detail = nil } }
      case .removeRowFromEffect(let id):
        return .run(modifying: State.self) { _, state in
          await state.modify { $0.rows.remove(id: id) }
        }
      case .replaceDetail(let id):
        state.detail = nil
        state.detail = Poller.State(id: id)
      case .replaceRow(let id):
        state.rows.remove(id: id)
        state.rows.append(Poller.State(id: id))
      case .detail, .rows: break
      }
      return .none
    }
    .ifLet(\.detail, action: .detail) { Poller(log: log) }
    .forEach(\.rows, action: .rows) { Poller(log: log) }
  }
}

extension CasePath where Root == Parent.Action, Value == Poller.Action {
  fileprivate static var detail: Self {
    Self(embed: Parent.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CasePath where Root == Parent.Action, Value == IdentifiedAction<Int, Poller.Action> {
  fileprivate static var rows: Self {
    Self(embed: Parent.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite("Child effect lifetimes")
struct ChildLifetimeTests {
  @Test("Setting ifLet state to nil cancels the child's in-flight effects")
  func ifLetCancelsChildEffects() async {
    let log = Log<String>()
    let store = Store(initialState: Parent.State(detail: .init(id: 1))) { Parent(log: log) }
    let running = store.send(.detail(.start))
    await log.wait(for: "poller 1 started")
    store.send(.closeDetail)
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["poller 1 started", "poller 1 cancelled"])
  }

  @Test("Removing a forEach element cancels its effects and only its effects")
  func forEachCancelsRemovedElement() async {
    let log = Log<String>()
    let store = Store(initialState: Parent.State(rows: [.init(id: 1), .init(id: 2)])) {
      Parent(log: log)
    }
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    await log.wait(for: "poller 1 started")
    await log.wait(for: "poller 2 started")
    store.send(.removeRow(1))
    await first.finish(timeout: .seconds(15))
    #expect(log.all.filter { $0.hasSuffix("cancelled") } == ["poller 1 cancelled"])
    #expect(!second.isCancelled)
    second.cancel()
    await second.finish(timeout: .seconds(15))
    #expect(
      log.all.filter { $0.hasSuffix("cancelled") } == ["poller 1 cancelled", "poller 2 cancelled"])
  }

  @Test("An ifLet child replaced by another identity in one reduce has its effects cancelled")
  func ifLetReplacedChildEffectsAreCancelled() async {
    let log = Log<String>()
    let store = Store(initialState: Parent.State(detail: .init(id: 1))) { Parent(log: log) }
    let old = store.send(.detail(.start))
    await log.wait(for: "poller 1 started")
    store.send(.replaceDetail(id: 2))
    await old.finish(timeout: .seconds(15))
    #expect(log.all == ["poller 1 started", "poller 1 cancelled"])
    // The new child's own work is its own.
    let new = store.send(.detail(.start))
    await log.wait(for: "poller 2 started")
    #expect(!new.isCancelled)
    new.cancel()
    await new.finish(timeout: .seconds(15))
  }

  @Test("An ifLet child kept under the same identity keeps its effects")
  func ifLetSameIdentityKeepsEffects() async {
    let log = Log<String>()
    let store = Store(initialState: Parent.State(detail: .init(id: 1))) { Parent(log: log) }
    let running = store.send(.detail(.start))
    await log.wait(for: "poller 1 started")
    store.send(.replaceDetail(id: 1))
    #expect(!running.isCancelled)
    running.cancel()
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["poller 1 started", "poller 1 cancelled"])
  }

  @Test("A forEach element removed and re-added under its id in one reduce loses its effects")
  func forEachReaddedElementEffectsAreCancelled() async {
    let log = Log<String>()
    let store = Store(initialState: Parent.State(rows: [.init(id: 1), .init(id: 2)])) {
      Parent(log: log)
    }
    let first = store.send(.rows(.element(id: 1, action: .start)))
    let second = store.send(.rows(.element(id: 2, action: .start)))
    await log.wait(for: "poller 1 started")
    await log.wait(for: "poller 2 started")
    store.send(.replaceRow(1))
    await first.finish(timeout: .seconds(15))
    #expect(log.all.filter { $0.hasSuffix("cancelled") } == ["poller 1 cancelled"])
    #expect(store.rows.ids == [2, 1])
    #expect(!second.isCancelled)
    second.cancel()
    await second.finish(timeout: .seconds(15))
  }

  @Test("A child removed by an effect's state.modify has its effects cancelled too")
  func removalByModificationCancelsChildEffects() async {
    let log = Log<String>()
    let store = Store(
      initialState: Parent.State(detail: .init(id: 1), rows: [.init(id: 2), .init(id: 3)])
    ) {
      Parent(log: log)
    }
    let detail = store.send(.detail(.start))
    let row2 = store.send(.rows(.element(id: 2, action: .start)))
    let row3 = store.send(.rows(.element(id: 3, action: .start)))
    await store.send(.closeDetailFromEffect).finish(timeout: .seconds(15))
    await store.send(.removeRowFromEffect(2)).finish(timeout: .seconds(15))
    // Cancelled as the modifications were applied; the remaining row's work is untouched.
    #expect(detail.isCancelled)
    #expect(row2.isCancelled)
    #expect(!row3.isCancelled)
    for task in [detail, row2, row3] { task.cancel() }
    for task in [detail, row2, row3] { await task.finish(timeout: .seconds(15)) }
  }

  @Test("Element and child actions for absent state are reported, not applied")
  func actionsForAbsentChildrenAreReported() {
    let recorder = RecordingReporter()
    let store = Store(initialState: Parent.State()) { Parent(log: Log()) }
    withIssueReporters([recorder]) {
      _ = store.send(.detail(.start))
      _ = store.send(.rows(.element(id: 9, action: .start)))
    }
    #expect(recorder.messages.count == 2)
    #expect(recorder.messages.first?.contains("start while \\State.detail was nil") == true)
    #expect(recorder.messages.last?.contains("for id 9, which is not in") == true)
  }
}
