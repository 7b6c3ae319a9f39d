/// Treats `body` as `@Sendable`. For closures that capture generic conformances the compiler
/// cannot prove sendable (SendableMetatypes) but that only run on one isolation domain.
func assumeSendable<A, B, R>(
  _ body: @escaping (inout A, (inout B) -> Void) -> R
) -> @Sendable (inout A, (inout B) -> Void) -> R {
  nonisolated(unsafe) let body = body
  return { body(&$0, $1) }
}
