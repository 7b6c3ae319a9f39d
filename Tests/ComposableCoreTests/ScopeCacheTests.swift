import ComposableCore
import Testing

/// Two counters and a list of them; every case path of `Action` that carries a
/// `Counter.Action` has the same types, so only the case path tells them apart.
private struct Board: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
    var detail: Counter.State?
    var slots: [Int] = [0, 0, 0]
  }
  enum Action: Sendable, Equatable {
    case left(Counter.Action)
    case right(Counter.Action)
    case detail(Counter.Action)
    case slot(Int, Counter.Action)
    case showDetail
    case hideDetail
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: .left) { Counter() }
    Scope(state: \.right, action: .right) { Counter() }
    Reduce { state, action in
      switch action {
      case .slot(let index, .increment): state.slots[index] += 1
      case .showDetail: state.detail = Counter.State()
      case .hideDetail: state.detail = nil
      case .left, .right, .detail: break
      }
      return .none
    }
    .ifLet(\.detail, action: .detail) { Counter() }
  }
}

// Embeds written as closures: they capture nothing, so each access builds the same function.
extension CasePath<Board.Action, Counter.Action> {
  fileprivate static var left: Self {
    Self(embed: { .left($0) }) { if case .left(let a) = $0 { a } else { nil } }
  }
  fileprivate static var right: Self {
    Self(embed: { .right($0) }) { if case .right(let a) = $0 { a } else { nil } }
  }
  fileprivate static var detail: Self {
    Self(embed: { .detail($0) }) { if case .detail(let a) = $0 { a } else { nil } }
  }
  /// A case path built from a captured value: one per slot.
  fileprivate static func slot(_ index: Int) -> Self {
    Self(embed: { .slot(index, $0) }) {
      if case .slot(index, let a) = $0 { a } else { nil }
    }
  }
}

@MainActor
@Suite("Scoped stores are cached per scope")
struct ScopeCacheTests {
  @Test("Scoping again to the same key path and case path returns the same store")
  func sameScopeSameStore() {
    let store = Store(initialState: Board.State()) { Board() }
    let first = store.scope(state: \.left, action: .left)
    let second = store.scope(state: \.left, action: .left)
    #expect(first === second)
    // Scoped stores cache their own scopes too.
    let nested = store.scope(state: \.self, action: .`self`)
    #expect(
      nested.scope(state: \.left, action: .left) === nested.scope(state: \.left, action: .left))
    // A case path kept in a value is one function, whatever its embed is built from.
    let kept = CasePath<Board.Action, Counter.Action>(embed: Board.Action.right) {
      if case .right(let a) = $0 { a } else { nil }
    }
    #expect(store.scope(state: \.right, action: kept) === store.scope(state: \.right, action: kept))
  }

  @Test("Another case path with the same key path gets its own store, which embeds into its case")
  func otherCasePathOtherStore() {
    let store = Store(initialState: Board.State()) { Board() }
    let viaLeft = store.scope(state: \.left, action: .left)
    let viaRight = store.scope(state: \.left, action: .right)
    #expect(viaLeft !== viaRight)
    viaRight.send(.increment)
    #expect(store.right.count == 1)
    #expect(store.left.count == 0)
    viaLeft.send(.increment)
    #expect(store.left.count == 1)
    #expect(store.right.count == 1)
    // Asking again still tells them apart.
    #expect(store.scope(state: \.left, action: .right) === viaRight)
    #expect(store.scope(state: \.left, action: .left) === viaLeft)
  }

  @Test("Case paths that capture different values never share a store")
  func capturedValuesAreDistinct() {
    let store = Store(initialState: Board.State()) { Board() }
    let one = store.scope(state: \.left, action: .slot(1))
    let two = store.scope(state: \.left, action: .slot(2))
    #expect(one !== two)
    one.send(.increment)
    two.send(.increment)
    two.send(.increment)
    #expect(store.slots == [0, 1, 2])
  }

  @Test("The cache does not keep released scoped stores, nor entries for them")
  func releasedStoresAreNotKept() {
    let store = Store(initialState: Board.State()) { Board() }
    weak var released: Store<Counter.State, Counter.Action>?
    do {
      let child = store.scope(state: \.left, action: .left)
      released = child
      #expect(released != nil)
    }
    #expect(released == nil)
    // A new store after the old one was released, and it works.
    let again = store.scope(state: \.left, action: .left)
    again.send(.increment)
    #expect(store.left.count == 1)
    // Stores scoped and released one after another leave a bounded number of entries.
    for index in 0..<200 {
      _ = store.scope(state: \.right, action: .slot(index % 3)).withState(\.count)
      _ = store.scope(state: \.left, action: CasePath(embed: { .slot(index % 3, $0) }) { _ in nil })
    }
    #expect(store.scopeCacheEntryCount <= 16)
  }

  @Test("Releasing the root releases every scoped store: the cache makes no cycle")
  func rootAndScopesAreReleasedTogether() {
    weak var root: Store<Board.State, Board.Action>?
    weak var child: Store<Counter.State, Counter.Action>?
    weak var grandchild: Store<Counter.State, Counter.Action>?
    do {
      let store = Store(initialState: Board.State()) { Board() }
      let scoped = store.scope(state: \.left, action: .left)
      let nested = scoped.scope(state: \.self, action: .`self`)
      _ = nested.state
      root = store
      child = scoped
      grandchild = nested
    }
    #expect(root == nil)
    #expect(child == nil)
    #expect(grandchild == nil)
  }

  @Test("An optional scope is cached while its state is present, and forgotten when it is not")
  func optionalScope() {
    let store = Store(initialState: Board.State()) { Board() }
    #expect(store.scope(ifLet: \.detail, action: .detail) == nil)
    store.send(.showDetail)
    let shown = store.scope(ifLet: \.detail, action: .detail)
    #expect(shown != nil)
    #expect(store.scope(ifLet: \.detail, action: .detail) === shown)
    store.send(.hideDetail)
    #expect(store.scope(ifLet: \.detail, action: .detail) == nil)
    store.send(.showDetail)
    let shownAgain = store.scope(ifLet: \.detail, action: .detail)
    #expect(shownAgain != nil)
    #expect(shownAgain !== shown)
    shownAgain?.send(.increment)
    #expect(store.detail?.count == 1)
  }
}
