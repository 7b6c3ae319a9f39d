import ComposableCore
import Foundation
import HTTPMessages
import LoopbackSockets

/// Writes server-sent events to one client of a ``HTTPServerResponse/eventStream(_:)``
/// response.
///
/// ```swift
/// router.get("/live") { request in
///   .eventStream { writer in
///     try? writer.send(ServerSentEvent(type: "merged", data: "P1", id: "7"))
///     await writer.disconnected()   // stream until the client leaves
///   }
/// }
/// ```
///
/// The server notices a client that closed or reset its connection even while nothing is
/// being written: ``isConnected`` turns false, ``disconnected()`` returns, and the producing
/// task is cancelled.
public final class EventStreamWriter: Sendable {
  /// The client is gone; nothing more can be written.
  public struct Disconnected: Error, CustomStringConvertible {
    public var description: String { "The event stream's client has disconnected." }
  }

  private struct State {
    var isConnected = true
    var resetRequested = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let connection: LoopbackConnection
  private let state = LockIsolated(State())

  init(connection: LoopbackConnection) {
    self.connection = connection
  }

  /// Whether the client is still connected, as far as the server knows.
  public var isConnected: Bool { state.withValue { $0.isConnected } }

  /// Sends one event: `retry:` (when given), `id:`, `event:` (unless `message`), one `data:`
  /// line per line of `event.data`, then the blank line that dispatches it.
  public func send(_ event: ServerSentEvent, retry: Duration? = nil) throws(Disconnected) {
    var text = ""
    if let retry { text += "retry: \(retry.wholeMilliseconds)\n" }
    if let id = event.id { text += "id: \(Self.singleLine(id))\n" }
    if event.type != "message" { text += "event: \(Self.singleLine(event.type))\n" }
    for line in Self.lines(of: event.data) { text += "data: \(line)\n" }
    text += "\n"
    try write(raw: Data(text.utf8))
  }

  /// Tells the client how long to wait before reconnecting (a `retry:` field on its own, which
  /// dispatches no event).
  ///
  /// ```swift
  /// try writer.advise(retry: .seconds(2))
  /// ```
  public func advise(retry: Duration) throws(Disconnected) {
    try write(raw: Data("retry: \(retry.wholeMilliseconds)\n\n".utf8))
  }

  /// Sends a comment line (`: text`), which clients ignore: a heartbeat.
  public func comment(_ text: String) throws(Disconnected) {
    try write(raw: Data(": \(Self.singleLine(text))\n".utf8))
  }

  /// Writes `bytes` as they are, for protocol tests (odd line ends, hostile lines).
  public func write(raw bytes: Data) throws(Disconnected) {
    guard isConnected else { throw Disconnected() }
    do {
      try connection.send(bytes)
    } catch {
      markDisconnected()
      throw Disconnected()
    }
  }

  /// Returns once the client has disconnected (or the server stopped).
  public func disconnected() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let connected = state.withValue { state -> Bool in
        if state.isConnected { state.waiters.append(continuation) }
        return state.isConnected
      }
      if !connected { continuation.resume() }
    }
  }

  /// Asks for the connection to be aborted with a TCP reset (the client sees "connection
  /// reset by peer") once the producing closure returns. For fault injection.
  public func resetConnection() {
    state.withValue { $0.resetRequested = true }
  }

  var resetRequested: Bool { state.withValue { $0.resetRequested } }

  func markDisconnected() {
    let waiters = state.withValue { state -> [CheckedContinuation<Void, Never>] in
      state.isConnected = false
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  private static func lines(of text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
  }

  private static func singleLine(_ text: String) -> String {
    text.split { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.joined(separator: " ")
  }
}
