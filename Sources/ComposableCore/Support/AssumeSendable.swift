/// Treats `body` as `@Sendable`. For closures that capture generic conformances the compiler
/// cannot prove sendable (SendableMetatypes) but that only run on one isolation domain.
func assumeSendable<A, B, R>(
  _ body: @escaping (inout A, (inout B) -> Void) -> R
) -> @Sendable (inout A, (inout B) -> Void) -> R {
  nonisolated(unsafe) let body = body
  return { body(&$0, $1) }
}

/// Treats the projection `body` as `@Sendable` (see the function above).
func assumeSendable<A, R>(_ body: @escaping (A) -> R) -> @Sendable (A) -> R {
  nonisolated(unsafe) let body = body
  return { body($0) }
}
