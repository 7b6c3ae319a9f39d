import ComposableCore

/// `foreach_10_ns` / `foreach_100k_ns`: one repetition of element actions through `forEach`
/// over `count` elements; returns nanoseconds per action. The ids visited are spread over the
/// whole collection (a multiplicative stride), as taps on arbitrary rows would be. The rows
/// are built fresh each repetition (untimed) and owned only by the store, so no send pays for
/// a copy-on-write of the collection.
@MainActor
func forEachSendRepetition(count: Int, operations: Int) throws -> Double {
  let ids = (0..<operations).map { ($0 &* 7_919) % count }
  let store = Store(
    initialState: Rows.State(
      rows: IdentifiedArray((0..<count).map { Row.State(id: $0, title: "Row \($0)") }))
  ) { Rows() }
  let nanoseconds = nanosecondsPerOperation(operations) {
    for id in ids { store.send(.rows(.element(id: id, action: .increment))) }
  }
  let total = store.rows.reduce(0) { $0 + $1.count }
  try check(
    total == operations, "forEach over \(count): \(total) of \(operations) element actions applied")
  return nanoseconds
}

/// One row of a list.
struct Row: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
    var title: String
  }

  enum Action: Equatable, Sendable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A list of rows; the parent reducer does nothing for element actions.
struct Rows: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArray<Row.State>
  }

  enum Action: Sendable {
    case rows(IdentifiedAction<Int, Row.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce<State, Action> { _, _ in .none }
      .forEach(\.rows, action: .rows) { Row() }
  }
}

extension CasePath<Rows.Action, IdentifiedAction<Int, Row.Action>> {
  static var rows: Self {
    Self(embed: Rows.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}
