import ComposableCore

/// The idempotency keys whose first request is being processed: a second request with one of
/// them is answered 409 "in flight" (IETF Idempotency-Key draft) instead of racing the first.
final class InFlightKeys: Sendable {
  private let keys = LockIsolated<Set<String>>([])

  /// Claims `key`; `false` when a request with it is already in flight.
  func claim(_ key: String) -> Bool {
    keys.withValue { $0.insert(key).inserted }
  }

  /// Releases a claimed key.
  func release(_ key: String) {
    _ = keys.withValue { $0.remove(key) }
  }
}
