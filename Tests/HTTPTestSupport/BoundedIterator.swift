/// A stream read one element at a time, each read bounded: a stream that stops delivering
/// fails the test with ``TimedOut`` instead of hanging it. One test reads it, one `next()` at a
/// time (hence unchecked).
///
/// ```swift
/// let updates = BoundedIterator(session.statusUpdates())
/// #expect(try await updates.next() == .signedIn)
/// ```
public final class BoundedIterator<Element: Sendable>: @unchecked Sendable {
  private var iterator: AsyncStream<Element>.Iterator
  private let seconds: Double

  /// Reads `stream`, waiting at most `seconds` for each element.
  public init(_ stream: AsyncStream<Element>, seconds: Double = 15) {
    iterator = stream.makeAsyncIterator()
    self.seconds = seconds
  }

  /// The next element, `nil` when the stream ended; throws ``TimedOut`` after the bound.
  public func next() async throws -> Element? {
    try await within(seconds, "the stream's next element") { await self.advance() }
  }

  private func advance() async -> Element? {
    await iterator.next()
  }
}
