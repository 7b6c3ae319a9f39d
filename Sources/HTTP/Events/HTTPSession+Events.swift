import ComposableCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension HTTPSession {
  /// Follows the server-sent event stream at `request`, reconnecting until the consumer stops
  /// iterating (which closes the connection: the server sees the disconnect).
  ///
  /// ```swift
  /// for try await event in session.events(.get("/v1/live")) {
  ///   if event.type == "merged" { notice("\(event.data) merged — refresh available") }
  /// }
  /// ```
  ///
  /// After an interruption (the server closed the stream, a reset, a timeout, a 5xx) it
  /// reconnects with `Last-Event-ID` set to the last event delivered, after
  /// ``EventStreamOptions/reconnect`` on the `\.clock` dependency (the server's `retry:`
  /// replaces its base): no event is lost or delivered twice by the client. A 204 ends the
  /// stream; a session end (a 401, or a sign-out while connected) ends it with
  /// ``HTTPSessionError/signedOut``; a hostile line, a response that is no event stream, or
  /// too many fruitless reconnections end it with an ``EventStreamError``.
  public func events(
    _ request: HTTPRequest, options: EventStreamOptions = EventStreamOptions()
  ) -> AsyncThrowingStream<ServerSentEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
    let clock = DependencyValues.current.clock
    let follower = Task {
      do {
        try await follow(request, options: options, clock: clock) { continuation.yield($0) }
        continuation.finish()
      } catch is CancellationError {
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in follower.cancel() }
    return stream
  }

  private func follow(
    _ request: HTTPRequest, options: EventStreamOptions, clock: any Clock<Duration>,
    deliver: @escaping @Sendable (ServerSentEvent) -> Void
  ) async throws {
    var lastEventID = options.lastEventID
    var serverRetry: Duration?
    var failures = 0
    while true {
      try Task.checkCancellation()
      options.onStateChange(.connecting(attempt: failures + 1, lastEventID: lastEventID))
      let connection = try await connectWatchingTheSession(
        request, lastEventID: lastEventID, options: options, deliver: deliver)
      lastEventID = connection.lastEventID
      serverRetry = connection.reconnectionTime ?? serverRetry
      guard let reason = connection.interruption else { return }
      failures = connection.delivered > 0 ? 1 : failures + 1
      if let limit = options.maxReconnectAttempts, failures > limit {
        throw EventStreamError.gaveUp(
          request: request.summary, failures: failures, lastFailure: reason)
      }
      let delay = options.reconnect.delay(afterFailures: failures, base: serverRetry)
      let wait = clock.sleep(endingIn: delay)
      log("↻ \(request.summary) in \(delay): \(reason)")
      options.onStateChange(.waiting(delay: delay, reason: reason))
      try await wait()
    }
  }

  /// One connection, ended early with ``HTTPSessionError/signedOut`` if the session ends
  /// while it is open.
  private func connectWatchingTheSession(
    _ request: HTTPRequest, lastEventID: String?, options: EventStreamOptions,
    deliver: @escaping @Sendable (ServerSentEvent) -> Void
  ) async throws -> ConnectionSummary {
    try await withThrowingTaskGroup(of: ConnectionSummary?.self) { group in
      group.addTask {
        try await self.connect(
          request, lastEventID: lastEventID, options: options, deliver: deliver)
      }
      if request.access == .session {
        let updates = statusUpdates()
        group.addTask {
          for await status in updates where !status.isSignedIn { throw HTTPSessionError.signedOut }
          return nil
        }
      }
      defer { group.cancelAll() }
      while let finished = try await group.next() {
        if let summary = finished { return summary }
      }
      throw CancellationError()
    }
  }

  /// How one connection went.
  private struct ConnectionSummary: Sendable {
    /// Why it ended and should be reconnected; `nil` when the server ended the stream (204).
    let interruption: String?
    let delivered: Int
    let lastEventID: String?
    let reconnectionTime: Duration?
  }

  private func connect(
    _ request: HTTPRequest, lastEventID: String?, options: EventStreamOptions,
    deliver: @escaping @Sendable (ServerSentEvent) -> Void
  ) async throws -> ConnectionSummary {
    var prepared = try prepare(request)
    prepared.urlRequest.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    prepared.urlRequest.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
    if let lastEventID {
      prepared.urlRequest.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
    }
    prepared.urlRequest.timeoutInterval = options.idleTimeout.effectiveTimeout.timeInterval
    log(Self.requestLine(prepared))
    let opened = prepared
    let connection = EventStreamConnection(
      parser: ServerSentEventParser(lastEventID: lastEventID, limits: options.limits),
      deliver: deliver,
      open: { [weak self] head in
        guard let self, (try? self.takeCookies(HTTPHeaders(head), for: opened)) != nil else {
          return false
        }
        options.onStateChange(.open)
        return true
      })
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let transport = URLTransport(
      configuration: URLSessionFactory.configuration(timeout: options.idleTimeout),
      delegate: connection, delegateQueue: queue)
    defer { transport.invalidate() }
    let started = URLTransport.Request(on: transport)
    let result = await withTaskCancellationHandler {
      await connection.run(prepared.urlRequest, as: started, on: transport)
    } onCancel: {
      started.cancel()
    }
    try Task.checkCancellation()
    if let failure = result.parseFailure {
      log("✗ \(request.summary): \(failure)")
      throw failure
    }
    func summary(_ interruption: String?) -> ConnectionSummary {
      ConnectionSummary(
        interruption: interruption, delivered: result.delivered,
        lastEventID: result.lastEventID, reconnectionTime: result.reconnectionTime)
    }
    guard let head = result.head else {
      return summary(reason(for: result.error, prepared))
    }
    if result.opened {
      return summary(
        result.error == nil ? "the server closed the stream" : reason(for: result.error, prepared))
    }
    if EventStreamConnection.isEventStream(head) { throw HTTPSessionError.signedOut }
    let response: HTTPResponse
    do {
      response = try await receive(
        HTTPHeaders(head), status: head.statusCode, body: Data(), for: prepared)
    } catch is SupersededCookies {
      return summary("its cookies were superseded while it opened")
    }
    switch response.status {
    case 204:
      return summary(nil)
    case 408, 429, 500, 502, 503, 504:
      return summary("the server answered \(response.status)")
    default:
      throw EventStreamError.notAnEventStream(
        request: request.summary, status: response.status,
        contentType: response.headers["Content-Type"])
    }
  }

  private func reason(for error: (any Error)?, _ prepared: Prepared) -> String {
    guard let error else { return "the connection ended" }
    return "\(failure(error, prepared))"
  }
}
