import Foundation

/// State used only on one serial queue: each ``perform(_:)`` runs alone, in call order, off
/// Swift's concurrency threads (SQLite calls block, and a connection serves one thread at a
/// time).
final class QueueConfined<State>: @unchecked Sendable {
  private let queue: DispatchQueue
  // Read and written only on `queue`.
  private var state: State

  init(_ state: State, label: String) {
    self.state = state
    self.queue = DispatchQueue(label: label)
  }

  /// Runs `body` with the state on the queue and answers its result.
  func perform<T: Sendable>(
    _ body: @escaping @Sendable (inout State) throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      queue.async {
        continuation.resume(with: Result { try body(&self.state) })
      }
    }
  }
}
