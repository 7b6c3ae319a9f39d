import ComposableCore
import Foundation

/// A test failure raised when a bounded wait runs out.
public struct TimedOut: Error, CustomStringConvertible {
  public let what: String

  public init(what: String) {
    self.what = what
  }

  public var description: String { "Timed out waiting for \(what)" }
}

/// Runs `operation`, failing with ``TimedOut`` after `seconds`: every wait in the HTTP tests
/// is bounded. On a timeout the operation is left running (cancelled, never awaited again), so
/// an operation that ignores cancellation cannot hang the test either.
public func within<T: Sendable>(
  _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let outcome = LockIsolated<CheckedContinuation<T, any Error>?>(nil)
  let settle: @Sendable (Result<T, any Error>) -> Void = { result in
    outcome.withValue { pending in
      defer { pending = nil }
      return pending
    }?.resume(with: result)
  }
  return try await withCheckedThrowingContinuation { continuation in
    outcome.setValue(continuation)
    let work = Task {
      do {
        settle(.success(try await operation()))
      } catch {
        settle(.failure(error))
      }
    }
    Task {
      try? await Task.sleep(for: .seconds(seconds))
      work.cancel()
      settle(.failure(TimedOut(what: what)))
    }
  }
}

/// A one-shot signal a test can await, boundedly.
public final class Signal: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  public init() {
    (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
  }

  public func fire() { continuation.yield() }

  /// Returns once fired (at once if it already was); fails after `seconds`.
  public func wait(seconds: Double = 15, _ what: String) async throws {
    let stream = self.stream
    try await within(seconds, what) {
      for await _ in stream { return }
    }
  }
}

/// Runs blocking socket work on a thread of its own: blocking the two-thread concurrency pool
/// would starve the server's handlers.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
