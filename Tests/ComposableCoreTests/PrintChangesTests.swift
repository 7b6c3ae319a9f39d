import ComposableCore
import ComposableTesting
import Testing

private struct Tally: Reducer {
  struct State: Equatable {
    var count = 0
    var title = "Tally"
  }
  enum Action: Sendable, Equatable {
    case increment
    case noop
    case incrementLater
    case child(Child)
    enum Child: Sendable, Equatable { case rename(String) }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .incrementLater:
      return .run { send in await send(.increment) }
    case .child(.rename(let title)):
      state.title = title
      return .none
    }
  }
}

/// `_printChanges` prints only in debug builds (as TCA's); a release build of these tests
/// expects silence.
#if DEBUG
  private let printsInThisBuild = true
#else
  private let printsInThisBuild = false
#endif

/// What the printer should have written, in this build.
private func printed(_ reports: [String]) -> [String] {
  printsInThisBuild ? reports : []
}

@MainActor
@Suite("Reducer._printChanges")
struct PrintChangesTests {
  @Test("Prints each action, sent or received from an effect, and the state diff it caused")
  func printsActionsAndDiffs() async {
    let log = Log<String>()
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges(.diff(to: { log.append($0) }))
    }
    store.send(.increment)
    store.send(.noop)
    await store.send(.incrementLater).finish(timeout: .seconds(15))
    #expect(
      log.all
        == printed([
          """
          received action:
            .increment
             Tally.State(
            −  count: 0,
            +  count: 1,
               title: "Tally",
             )

          """,
          """
          received action:
            .noop
            (No state changes)

          """,
          """
          received action:
            .incrementLater
            (No state changes)

          """,
          """
          received action:
            .increment
             Tally.State(
            −  count: 1,
            +  count: 2,
               title: "Tally",
             )

          """,
        ]))
  }

  @Test("actionLabels prints one line per action with its case names, without payloads")
  func actionLabels() {
    let log = Log<String>()
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges(.actionLabels(to: { log.append($0) }))
    }
    store.send(.increment)
    store.send(.child(.rename("Score")))
    #expect(
      log.all
        == printed([
          "received action: .increment\n",
          "received action: .child(.rename)\n",
        ]))
  }

  @Test("A custom printer gets the action and the state before and after; nil prints nothing")
  func customAndNilPrinters() {
    let seen = LockIsolated<[String]>([])
    let store = Store(initialState: Tally.State()) {
      Tally()._printChanges(
        ChangePrinter { action, old, new in
          seen.withValue { $0.append("\(action): \(old.count) → \(new.count)") }
        })
    }
    store.send(.increment)
    #expect(seen.current == printed(["increment: 0 → 1"]))

    let silent = Store(initialState: Tally.State()) { Tally()._printChanges(nil) }
    silent.send(.increment)
    #expect(silent.count == 1)
  }

  @Test("Under a TestStore the feature behaves the same with printing on")
  func testStoreUnchanged() async {
    let log = Log<String>()
    let store = TestStore(initialState: Tally.State()) {
      Tally()._printChanges(.actionLabels(to: { log.append($0) }))
    }
    await store.send(.incrementLater)
    await store.receive(.increment) { $0.count = 1 }
    #expect(
      log.all == printed(["received action: .incrementLater\n", "received action: .increment\n"]))
  }
}
