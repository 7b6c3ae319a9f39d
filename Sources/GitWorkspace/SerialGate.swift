/// Runs operations one at a time per key (a repository path), in call order, so two operations
/// of the same workspace never race on its refs, index or worktree. Different keys run in
/// parallel. Shared by every client in the process.
actor SerialGate {
  static let shared = SerialGate()

  private var tails: [String: Task<Void, Never>] = [:]

  func run<T: Sendable>(
    _ key: String,
    _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let previous = tails[key]
    let task = Task<T, any Error> {
      await previous?.value
      try Task.checkCancellation()
      return try await operation()
    }
    tails[key] = Task { _ = await task.result }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }
}
