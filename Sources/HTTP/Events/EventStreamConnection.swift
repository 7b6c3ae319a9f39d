import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One connection of an event stream: a URLSession data task whose delegate feeds the bytes
/// to a parser as they arrive (`URLSession.bytes(for:)` does not exist on Linux) and hands
/// each event on at once. Its delegate calls run on the session's delegate queue, never on a
/// cooperative thread, so the `cancel()` they make may wait for FoundationNetworking.
final class EventStreamConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var parser: ServerSentEventParser
  private let deliver: @Sendable (ServerSentEvent) -> Void
  private let open: @Sendable (HTTPURLResponse) -> Bool
  private var head: HTTPURLResponse?
  private var opened = false
  private var parseFailure: EventStreamError?
  private var delivered = 0
  private var ending: Ending?
  private var waiter: CheckedContinuation<Ending, Never>?

  /// How the task ended: its URL error (nil when the server closed the stream).
  struct Ending {
    let error: (any Error)?
  }

  /// What is known once the task ended.
  struct Result {
    let head: HTTPURLResponse?
    let opened: Bool
    let parseFailure: EventStreamError?
    let delivered: Int
    let lastEventID: String?
    let reconnectionTime: Duration?
    let error: (any Error)?
  }

  /// `open` is asked about a 200 `text/event-stream` head (after taking its cookies); a
  /// `false` closes the connection. Any other head closes it without reading its body.
  init(
    parser: ServerSentEventParser, deliver: @escaping @Sendable (ServerSentEvent) -> Void,
    open: @escaping @Sendable (HTTPURLResponse) -> Bool
  ) {
    self.parser = parser
    self.deliver = deliver
    self.open = open
  }

  /// Starts `urlRequest` as `request` on `transport` (whose session has this connection as its
  /// delegate) and returns once it ended; a request cancelled first is never started.
  func run(
    _ urlRequest: URLRequest, as request: URLTransport.Request, on transport: URLTransport
  ) async -> Result {
    let finished = await withCheckedContinuation {
      (continuation: CheckedContinuation<Ending, Never>) in
      let early = lock.withLock { () -> Ending? in
        if self.ending == nil { waiter = continuation }
        return self.ending
      }
      if let early { return continuation.resume(returning: early) }
      transport.start(
        urlRequest, as: request, refused: { self.finish(Ending(error: CancellationError())) })
    }
    return lock.withLock {
      Result(
        head: head, opened: opened, parseFailure: parseFailure, delivered: delivered,
        lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime,
        error: finished.error)
    }
  }

  /// Records how the task ended and wakes ``run(_:as:on:)``.
  private func finish(_ ending: Ending) {
    let waiter = lock.withLock { () -> CheckedContinuation<Ending, Never>? in
      self.ending = ending
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume(returning: ending)
  }

  static func isEventStream(_ response: HTTPURLResponse) -> Bool {
    response.statusCode == 200
      && (response.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
        .hasPrefix("text/event-stream")
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    let accepted = http.map { Self.isEventStream($0) && open($0) } ?? false
    lock.withLock {
      head = http
      opened = accepted
    }
    completionHandler(accepted ? .allow : .cancel)
    // FoundationNetworking ignores the disposition: cancel the task as well.
    if !accepted { dataTask.cancel() }  // sync-wait: the session's delegate queue
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let events = lock.withLock { () -> [ServerSentEvent] in
      guard opened, parseFailure == nil else { return [] }
      do throws(EventStreamError) {
        let events = try parser.push(data)
        delivered += events.count
        return events
      } catch {
        parseFailure = error
        return []
      }
    }
    // sync-wait: the session's delegate queue
    if lock.withLock({ parseFailure != nil }) { dataTask.cancel() }
    // The delegate queue is serial: events are handed on in the order they were parsed.
    for event in events { deliver(event) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    finish(Ending(error: error))
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
