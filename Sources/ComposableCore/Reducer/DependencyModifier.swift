extension Reducer {
  /// Runs this reducer, and the effects it returns, with the dependency at `keyPath` set to
  /// `value`.
  ///
  /// ```swift
  /// Feature().dependency(\.clock, TestClock())
  /// ```
  public func dependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> DependencyModifier<Self> {
    DependencyModifier(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Runs this reducer, and the effects it returns, with the type-keyed dependency `value`.
  ///
  /// ```swift
  /// EventApplication()
  ///   .dependency(authoringClient)
  ///   .dependency(workspaceClient)
  /// ```
  public func dependency<Value: DependencyKey>(_ value: Value) -> DependencyModifier<Self>
  where Value.Value == Value {
    DependencyModifier(base: self) { $0[Value.self] = value }
  }

  /// Runs this reducer, and the effects it returns, with the dependency at `keyPath` changed
  /// in place by `transform` (starting from the value in force around it).
  ///
  /// ```swift
  /// Feature()
  ///   .transformDependency(\.date) { $0.now = Date(timeIntervalSince1970: 0) }
  /// ```
  public func transformDependency<Value: Sendable>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> DependencyModifier<Self> {
    DependencyModifier(base: self) { transform(&$0[keyPath: keyPath]) }
  }

  /// Runs this reducer, and the effects it returns, with dependencies changed by `update`.
  public func transformDependencies(
    _ update: @escaping (inout DependencyValues) -> Void
  ) -> DependencyModifier<Self> {
    DependencyModifier(base: self, update: update)
  }
}

/// A reducer run with changed dependencies; effects it returns capture them.
public struct DependencyModifier<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: (inout DependencyValues) -> Void

  @usableFromInline
  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    update(&values)
    return DependencyValues.install(values) {
      base.reduce(into: &state, action: action)
    }
  }
}
