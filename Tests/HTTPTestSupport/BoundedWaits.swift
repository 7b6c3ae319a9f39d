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
/// is bounded.
public func within<T: Sendable>(
  _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      throw TimedOut(what: what)
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw TimedOut(what: what) }
    return first
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
  public func wait(seconds: Double = 5, _ what: String) async throws {
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
