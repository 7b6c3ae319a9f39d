import ComposableCore
import ComposableTesting
import Testing

/// A form whose `onChange` records each change of `query` (old → new), reacting after the
/// base reducer, and searches (debounced) when the query changed.
private struct Form: Reducer {
  struct State: Equatable {
    var query = ""
    var count = 0
    var changes: [String] = []
    var searched: [String] = []
  }
  enum Action: Sendable, Equatable {
    case setQuery(String)
    case increment
    case search(String)
  }
  enum CancelID: Hashable, Sendable { case search }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .setQuery(let query): state.query = query
      case .increment: state.count += 1
      case .search(let query): state.searched.append(query)
      }
      return .none
    }
    .onChange(of: \.query) { oldQuery, newQuery in
      Reduce { state, _ in
        // Runs after the base reducer: the state already holds the new value.
        state.changes.append("\(oldQuery)→\(newQuery) (state: \(state.query))")
        return .send(.search(newQuery)).debounce(id: CancelID.search, for: .milliseconds(300))
      }
    }
  }
}

/// Counts selections by id only: its value is not `Equatable`.
private struct Picker: Reducer {
  struct Selection {
    let id: Int
    let label: String
  }
  struct State: Equatable {
    var selection = Selection(id: 0, label: "none")
    var reactions = 0
    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.selection.id == rhs.selection.id && lhs.selection.label == rhs.selection.label
        && lhs.reactions == rhs.reactions
    }
  }
  enum Action: Sendable, Equatable { case select(id: Int, label: String) }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .select(let id, let label): state.selection = Selection(id: id, label: label)
      }
      return .none
    }
    .onChange(of: \.selection, removeDuplicates: { $0.id == $1.id }) { _, _ in
      Reduce { state, _ in
        state.reactions += 1
        return .none
      }
    }
  }
}

@MainActor
@Suite("Reducer.onChange")
struct OnChangeTests {
  @Test("Reacts once per change, with the old and new value, after the base reducer")
  func reactsToChanges() async {
    let clock = TestClock()
    let store = TestStore(initialState: Form.State()) {
      Form()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.setQuery("a")) {
      $0.query = "a"
      $0.changes = ["→a (state: a)"]
    }
    await store.send(.increment) { $0.count = 1 }  // query unchanged: no reaction
    await store.send(.setQuery("a"))  // same value: no reaction
    await store.send(.setQuery("ab")) {
      $0.query = "ab"
      $0.changes = ["→a (state: a)", "a→ab (state: ab)"]
    }
    // The reaction's effects run: debounced, only the last search happens.
    await clock.advance(by: .milliseconds(300))
    await store.receive(.search("ab")) { $0.searched = ["ab"] }
  }

  @Test("removeDuplicates decides what counts as a change")
  func removeDuplicates() async {
    let store = TestStore(initialState: Picker.State()) { Picker() }
    await store.send(.select(id: 1, label: "one")) {
      $0.selection = .init(id: 1, label: "one")
      $0.reactions = 1
    }
    await store.send(.select(id: 1, label: "uno")) {  // same id: not a change
      $0.selection = .init(id: 1, label: "uno")
    }
    await store.send(.select(id: 2, label: "two")) {
      $0.selection = .init(id: 2, label: "two")
      $0.reactions = 2
    }
  }
}
