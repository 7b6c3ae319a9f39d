import ComposableCore

/// Runs CPU-heavy synchronous test work (a million-byte digest, a 10 MB stream) on a thread of
/// its own, so it never holds one of the two threads of Swift's cooperative pool — which the
/// rest of the suite, running in parallel, needs — for the second or more it takes in a debug
/// build.
public func offThePool<T: Sendable>(
  _ work: @escaping @Sendable () throws -> T
) async throws -> T {
  try await withBlockingWork("HTTPTestSupport.offThePool") { Result { try work() } }.get()
}
