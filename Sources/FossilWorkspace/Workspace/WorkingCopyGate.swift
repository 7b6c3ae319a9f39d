/// Runs the operations on one working copy one at a time, in call order, so two operations
/// never interleave their reads and writes of its files and records. Different working
/// copies run in parallel. Shared by every client in the process.
actor WorkingCopyGate {
  static let shared = WorkingCopyGate()

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
