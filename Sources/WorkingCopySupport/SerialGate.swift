/// Runs operations one at a time per key, in call order; different keys run in parallel.
///
/// For live integrations (the Git and Fossil clients): keyed by a working copy's path, two
/// operations of one workspace never interleave their reads and writes of its files, refs or
/// records, whichever client value or task calls them. One gate serves the whole process.
public actor SerialGate {
  public static let shared = SerialGate()

  private var tails: [String: Task<Void, Never>] = [:]

  /// Runs `operation` after every operation queued before under `key`; a cancelled caller
  /// cancels its operation (one that had not started yet does not start).
  public func run<T: Sendable>(
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
