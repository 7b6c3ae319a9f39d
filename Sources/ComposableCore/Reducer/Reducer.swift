/// A feature's logic: how an action changes `State`, and what work (``Effect``) follows.
///
/// Implement `reduce(into:action:)` for a primitive reducer, or `body` to compose others:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action: Sendable { case increment }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     state.count += 1
///     return .none
///   }
/// }
///
/// struct App: Reducer {
///   var body: some Reducer<State, Action> {
///     Scope(state: \.counter, action: .counter) { Counter() }
///     Reduce { state, action in … }
///   }
/// }
/// ```
///
/// Reducers run on the main actor, synchronously; all async work belongs in effects.
public protocol Reducer<State, Action> {
  associatedtype State
  associatedtype Action: Sendable
  associatedtype Body: Reducer<State, Action> = PrimitiveReducerBody<State, Action>

  /// Evolves `state` for `action` and returns the work that follows.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is composed of.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer {
  /// Runs `body`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

extension Reducer where Body == PrimitiveReducerBody<State, Action> {
  /// A primitive reducer has no body; its logic is `reduce(into:action:)`.
  @inlinable
  public var body: Body {
    PrimitiveReducerBody(owner: Self.self)
  }
}

/// The `body` of a reducer that implements `reduce(into:action:)` itself.
///
/// Reaching its `reduce` means a reducer implemented neither `reduce(into:action:)` nor `body`;
/// that is reported as an issue instead of recursing forever.
public struct PrimitiveReducerBody<State, Action: Sendable>: Reducer {
  @usableFromInline let owner: Any.Type

  @usableFromInline
  init(owner: Any.Type) {
    self.owner = owner
  }

  public var body: Self { self }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reportIssue("\(owner) implements neither `reduce(into:action:)` nor `body`.")
    return .none
  }
}
