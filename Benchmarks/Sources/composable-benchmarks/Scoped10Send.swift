import ComposableCore

/// `scoped10_send_ns`: one repetition of the counter's action sent through a store scoped 10
/// levels deep (ten `scope(state:action:)` calls, each level a feature with
/// `Scope(state: \.child, action: .child)`); returns nanoseconds per send.
@MainActor
func scoped10SendRepetition(operations: Int) throws -> Double {
  let root = Store(initialState: Nested10.State()) { Nested10() }
  let s1 = root.scope(state: \.child, action: .child)
  let s2 = s1.scope(state: \.child, action: .child)
  let s3 = s2.scope(state: \.child, action: .child)
  let s4 = s3.scope(state: \.child, action: .child)
  let s5 = s4.scope(state: \.child, action: .child)
  let s6 = s5.scope(state: \.child, action: .child)
  let s7 = s6.scope(state: \.child, action: .child)
  let s8 = s7.scope(state: \.child, action: .child)
  let s9 = s8.scope(state: \.child, action: .child)
  let leaf = s9.scope(state: \.child, action: .child)
  let nanoseconds = nanosecondsPerOperation(operations) {
    for _ in 0..<operations { leaf.send(.increment) }
  }
  try check(
    root.state.leaf.count == operations,
    "scoped: root has \(root.state.leaf.count) of \(operations)")
  try check(leaf.count == operations, "scoped: leaf store has \(leaf.count) of \(operations)")
  withExtendedLifetime((s1, s2, s3, s4, s5, s6, s7, s8, s9)) {}
  return nanoseconds
}

/// `nested10_root_send_ns` (extra, for diagnosis): the same nested action sent to the root
/// store of the same 10-level feature, with no scoped stores. It separates the cost of ten
/// `Scope` reducers from the cost of ten scoped stores.
@MainActor
func nested10RootSendRepetition(operations: Int) throws -> Double {
  let store = Store(initialState: Nested10.State()) { Nested10() }
  let action = Nested10.Action.leaf(.increment)
  let nanoseconds = nanosecondsPerOperation(operations) {
    for _ in 0..<operations { store.send(action) }
  }
  try check(
    store.state.leaf.count == operations, "nested root: \(store.state.leaf.count) of \(operations)")
  return nanoseconds
}

/// Ten concrete feature levels, each scoping the next with `Scope(state: \.child, action: .child)`,
/// with `Counter` at the bottom, as ten nested features of an app would be written.
typealias Nested10 = Level1

extension Level1.State {
  /// The counter at the bottom.
  var leaf: Counter.State { child.child.child.child.child.child.child.child.child.child }
}

extension Level1.Action {
  /// The counter's action, embedded through all ten levels.
  static func leaf(_ action: Counter.Action) -> Self {
    .child(.child(.child(.child(.child(.child(.child(.child(.child(.child(action))))))))))
  }
}

struct Level1: Reducer {
  struct State: Equatable, Sendable { var child = Level2.State() }
  enum Action: Sendable { case child(Level2.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level2() } }
}

extension CasePath<Level1.Action, Level2.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level2: Reducer {
  struct State: Equatable, Sendable { var child = Level3.State() }
  enum Action: Sendable { case child(Level3.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level3() } }
}

extension CasePath<Level2.Action, Level3.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level3: Reducer {
  struct State: Equatable, Sendable { var child = Level4.State() }
  enum Action: Sendable { case child(Level4.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level4() } }
}

extension CasePath<Level3.Action, Level4.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level4: Reducer {
  struct State: Equatable, Sendable { var child = Level5.State() }
  enum Action: Sendable { case child(Level5.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level5() } }
}

extension CasePath<Level4.Action, Level5.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level5: Reducer {
  struct State: Equatable, Sendable { var child = Level6.State() }
  enum Action: Sendable { case child(Level6.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level6() } }
}

extension CasePath<Level5.Action, Level6.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level6: Reducer {
  struct State: Equatable, Sendable { var child = Level7.State() }
  enum Action: Sendable { case child(Level7.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level7() } }
}

extension CasePath<Level6.Action, Level7.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level7: Reducer {
  struct State: Equatable, Sendable { var child = Level8.State() }
  enum Action: Sendable { case child(Level8.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level8() } }
}

extension CasePath<Level7.Action, Level8.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level8: Reducer {
  struct State: Equatable, Sendable { var child = Level9.State() }
  enum Action: Sendable { case child(Level9.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level9() } }
}

extension CasePath<Level8.Action, Level9.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level9: Reducer {
  struct State: Equatable, Sendable { var child = Level10.State() }
  enum Action: Sendable { case child(Level10.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Level10() } }
}

extension CasePath<Level9.Action, Level10.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level10: Reducer {
  struct State: Equatable, Sendable { var child = Counter.State() }
  enum Action: Sendable { case child(Counter.Action) }
  var body: some Reducer<State, Action> { Scope(state: \.child, action: .child) { Counter() } }
}

extension CasePath<Level10.Action, Counter.Action> {
  static var child: Self {
    Self(embed: Root.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
