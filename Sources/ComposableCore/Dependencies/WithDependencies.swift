/// Runs `operation` with the current dependencies changed by `update`.
///
/// ```swift
/// let store = withDependencies {
///   $0.clock = ContinuousClock()
/// } operation: {
///   Store(initialState: Feature.State()) { Feature() }
/// }
/// ```
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.install(values, operation: operation)
}

/// Runs the async `operation` with the current dependencies changed by `update`.
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.install(values, isolation: isolation, operation: operation)
}
