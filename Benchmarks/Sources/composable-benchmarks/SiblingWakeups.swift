import ComposableCore

/// `sibling_wakeups`: notifications an observer of one scoped child store's state sees while
/// `operations` actions, sent through its sibling's scoped store, change only the sibling.
///
/// Also returns `sibling_control_wakeups` (extra): the same observer kind on the changed
/// sibling, which must see every change, so the zero above means something.
@MainActor
func benchmarkSiblingWakeups(
  operations: Int, repetitions: Int
) async throws -> (quiet: Summary, control: Summary) {
  var quiet: [Double] = []
  var control: [Double] = []
  for repetition in 0...repetitions {  // repetition 0 is the warm-up
    let root = Store(initialState: Siblings.State()) { Siblings() }
    let left = root.scope(state: \.left, action: .left)
    let right = root.scope(state: \.right, action: .right)
    let leftObserver = ReregisteringObserver { _ = left.state }
    let rightObserver = ReregisteringObserver { _ = right.state }
    for _ in 0..<operations { right.send(.increment) }
    leftObserver.stop()
    rightObserver.stop()
    try check(
      root.right.count == operations, "siblings: \(root.right.count) of \(operations) applied")
    try check(left.count == 0, "siblings: the quiet child changed")
    guard repetition > 0 else { continue }
    quiet.append(Double(leftObserver.changes))
    control.append(Double(rightObserver.changes))
  }
  return (
    Summary(value: quiet.max() ?? 0, repetitions: repetitions, statistic: "max"),
    Summary(value: median(control), repetitions: repetitions, statistic: "median")
  )
}

/// Two counters side by side.
struct Siblings: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
  }

  enum Action: Sendable {
    case left(Counter.Action)
    case right(Counter.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: .left) { Counter() }
    Scope(state: \.right, action: .right) { Counter() }
  }
}

extension CasePath<Siblings.Action, Counter.Action> {
  static var left: Self {
    Self(embed: Siblings.Action.left) { if case .left(let action) = $0 { action } else { nil } }
  }

  static var right: Self {
    Self(embed: Siblings.Action.right) { if case .right(let action) = $0 { action } else { nil } }
  }
}
