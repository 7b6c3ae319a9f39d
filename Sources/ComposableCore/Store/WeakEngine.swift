/// A store's engine, held weakly: one per engine, shared by all of its running effects, so a
/// running effect never keeps its store alive and starting one costs a retain, not a weak
/// reference of its own (the runtime's weak references cost atomic side-table updates).
@usableFromInline
final class WeakEngine<State, Action: Sendable>: Sendable {
  /// Read on the main actor only.
  nonisolated(unsafe) private(set) weak var engine: StoreEngine<State, Action>?

  init(_ engine: StoreEngine<State, Action>) {
    self.engine = engine
  }
}
