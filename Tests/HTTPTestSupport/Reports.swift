import ComposableCore

/// Reports from a callback (an intent's progress, an event stream's states), kept in order and
/// awaitable one by one, boundedly.
public final class Reports<Report: Sendable>: Sendable {
  private let stream: AsyncStream<Report>
  private let continuation: AsyncStream<Report>.Continuation
  private let all = LockIsolated<[Report]>([])

  public init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  /// The callback to hand to the code under test.
  public var report: @Sendable (Report) -> Void {
    { [continuation, all] report in
      all.withValue { $0.append(report) }
      continuation.yield(report)
    }
  }

  /// Every report so far.
  public var reports: [Report] { all.withValue { $0 } }

  /// The first report not awaited before that `match` turns into a value; fails after 10 s.
  public func next<T: Sendable>(
    _ what: String, _ match: @escaping @Sendable (Report) -> T?
  ) async throws -> T {
    let stream = self.stream
    return try await within(10, what) {
      for await report in stream {
        if let value = match(report) { return value }
      }
      throw TimedOut(what: what)
    }
  }
}
