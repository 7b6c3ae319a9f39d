/// How an event stream connects, reconnects and bounds what it reads.
///
/// ```swift
/// var options = EventStreamOptions(lastEventID: savedID)
/// options.onStateChange = { state in print(state) }   // "reconnecting in 3 s…"
/// for try await event in session.events(.get("/v1/live"), options: options) { … }
/// ```
public struct EventStreamOptions: Sendable {
  /// Where to resume: sent as `Last-Event-ID` on the first connection.
  public var lastEventID: String?
  /// The wait before each reconnection, on the `\.clock` dependency. Its `initial` is the
  /// reconnection time until the server sends `retry:`, which then replaces it; the wait
  /// grows while reconnections bring no event, and starts again after one that does.
  public var reconnect: Backoff
  /// Reconnections in a row that may bring no event before the stream gives up with
  /// ``EventStreamError/gaveUp(request:failures:lastFailure:)``; `nil` never gives up.
  public var maxReconnectAttempts: Int?
  /// The longest the server may stay silent (send heartbeat comments within it).
  public var idleTimeout: Duration
  public var limits: ServerSentEventParser.Limits
  /// Told of every connection change, in order.
  public var onStateChange: @Sendable (EventStreamState) -> Void

  public init(
    lastEventID: String? = nil,
    reconnect: Backoff = Backoff(initial: .seconds(3), maximum: .seconds(60)),
    maxReconnectAttempts: Int? = nil, idleTimeout: Duration = .seconds(120),
    limits: ServerSentEventParser.Limits = .init(),
    onStateChange: @escaping @Sendable (EventStreamState) -> Void = { _ in }
  ) {
    self.lastEventID = lastEventID
    self.reconnect = reconnect
    self.maxReconnectAttempts = maxReconnectAttempts
    self.idleTimeout = idleTimeout
    self.limits = limits
    self.onStateChange = onStateChange
  }
}

/// Where an event stream's connection stands.
public enum EventStreamState: Sendable, Hashable, CustomStringConvertible {
  /// Connecting (attempt 1 is the first connection), resuming after `lastEventID`.
  case connecting(attempt: Int, lastEventID: String?)
  /// The server answered with an event stream.
  case open
  /// The connection ended (`reason`); the next starts after `delay` on the `\.clock`
  /// dependency. The wait's deadline is fixed before this is reported.
  case waiting(delay: Duration, reason: String)

  public var description: String {
    switch self {
    case .connecting(let attempt, let id):
      "connecting (attempt \(attempt)\(id.map { ", after event \($0)" } ?? ""))"
    case .open: "open"
    case .waiting(let delay, let reason): "reconnecting in \(delay.formattedSeconds): \(reason)"
    }
  }
}
