import ComposableCore

/// `scope_call_ns`: one repetition of `store.scope(state: \.child, action: .child)` called
/// again and again while the store it returned first is held, as a view body scopes on every
/// render while the view it rendered last holds the store; returns nanoseconds per call.
/// Checks that every call returned the held store (a cache hit).
@MainActor
func scopeCallRepetition(operations: Int) throws -> Double {
  let root = Store(initialState: Nested10.State()) { Nested10() }
  let held = root.scope(state: \.child, action: .child)
  var misses = 0
  let nanoseconds = nanosecondsPerOperation(operations) {
    for _ in 0..<operations {
      if root.scope(state: \.child, action: .child) !== held { misses += 1 }
    }
  }
  try check(misses == 0, "scope call: \(misses) of \(operations) calls made a new store")
  return nanoseconds
}

/// `scope_uncached_ns` (extra): the same call with a case path built from a captured value
/// anew for each call, which the cache cannot tell from another case path, so every call makes
/// a new scoped store (the caller drops it by the next call, as a view drops a store it no
/// longer renders). The cost a `scope` call had before the cache. Checks that each store sends.
@MainActor
func scopeUncachedRepetition(operations: Int) throws -> Double {
  let root = Store(initialState: Nested10.State()) { Nested10() }
  var distinct = 0
  var previous: AnyObject?
  let nanoseconds = nanosecondsPerOperation(operations) {
    for round in 0..<operations {
      let child = root.scope(state: \.child, action: .capturing(round))
      if child !== previous { distinct += 1 }
      previous = child
    }
  }
  try check(distinct == operations, "uncached scope: \(distinct) stores for \(operations) calls")
  root.scope(state: \.child, action: .capturing(0)).send(.leaf(.increment))
  try check(root.state.leaf.count == 1, "uncached scope: the last store did not send")
  return nanoseconds
}

extension CasePath<Level1.Action, Level2.Action> {
  /// `.child`, built from a closure that captures `round`: a new function each time.
  static func capturing(_ round: Int) -> Self {
    Self(embed: { action in
      _ = round
      return .child(action)
    }) {
      if case .child(let a) = $0 { a } else { nil }
    }
  }
}

extension Level2.Action {
  /// The counter's action, embedded through the nine levels below `Level1`.
  static func leaf(_ action: Counter.Action) -> Self {
    .child(.child(.child(.child(.child(.child(.child(.child(.child(action)))))))))
  }
}
