import ComposableCore
import Foundation
import LoopbackSockets
import WorkspaceHTTP

/// Serves one client connection on its own thread: reads requests, runs the handler, writes
/// answers, until the client leaves, asks to close, or the server stops.
struct ServedConnection {
  struct Configuration: Sendable {
    let limits: LoopbackHTTPServer.Limits
    let handler: HTTPHandler

    var requestLimits: HTTPRequestLimits {
      HTTPRequestLimits(
        maxHeadBytes: limits.maxHeadBytes, maxHeaderCount: limits.maxHeaderCount,
        maxBodyBytes: limits.maxBodyBytes)
    }
  }

  /// How often a waiting connection thread checks whether its client hung up.
  private static let hangupCheck = DispatchTimeInterval.milliseconds(50)

  let connection: LoopbackConnection
  let configuration: Configuration
  let registry: ConnectionRegistry
  /// Runs this connection's handlers, one request at a time, off the cooperative pool.
  private let handlers = HandlerExecutor(label: "LoopbackHTTPServer.connection")

  func serve() {
    guard let id = registry.open(connection) else {
      connection.close()
      return
    }
    defer { registry.close(id) }
    connection.setReceiveTimeout(
      milliseconds: Self.milliseconds(configuration.limits.receiveTimeout))
    connection.setSendTimeout(milliseconds: Self.milliseconds(configuration.limits.sendTimeout))
    var reader = HTTPRequestReader(connection: connection, limits: configuration.requestLimits)
    while true {
      let incoming: HTTPIncomingRequest
      do {
        guard let next = try reader.next() else { break }
        incoming = next
      } catch let rejection as HTTPRequestRejection {
        refuse(rejection)
        return
      } catch {
        break
      }
      let request = HTTPServerRequest(
        method: incoming.head.method, target: incoming.head.target,
        headers: incoming.head.headers, body: incoming.body)
      guard let response = answer(request, id: id) else { break }
      guard deliver(response, to: request, keepAlive: incoming.head.keepsAlive, id: id) else {
        break
      }
    }
    connection.close()
  }

  /// Runs the handler as a task, waiting on this thread; `nil` when the client hung up first
  /// (the handler is then cancelled and its answer dropped).
  private func answer(_ request: HTTPServerRequest, id: Int) -> HTTPServerResponse? {
    let result = LockIsolated<HTTPServerResponse?>(nil)
    let done = DispatchSemaphore(value: 0)
    let handler = configuration.handler
    let task = handlers.start {
      let response = await handler(request)
      result.setValue(response)
      done.signal()
    }
    registry.setTask(task, for: id)
    defer { registry.setTask(nil, for: id) }
    var watching = true
    // sync-wait: the connection's own thread (LoopbackListener starts one per connection)
    while done.wait(timeout: .now() + Self.hangupCheck) == .timedOut {
      guard watching else { continue }
      switch connection.peerState(discardingInput: false) {
      case .hungUp:
        task.cancel()
        return nil
      case .sentData: watching = false  // a pipelined request: stop peeking until this ends
      case .open: break
      }
    }
    return result.current
  }

  /// Writes `response`; answers whether the connection stays open for another request.
  private func deliver(
    _ response: HTTPServerResponse, to request: HTTPServerRequest, keepAlive: Bool, id: Int
  ) -> Bool {
    switch response.body {
    case .bytes(let body):
      let head = ResponseHead.serialize(
        status: response.status, headers: response.headers, contentLength: body.count,
        close: !keepAlive)
      let bytes = request.method == .head ? head : head + body
      do { try connection.send(bytes) } catch { return false }
      return keepAlive
    case .eventStream(let produce):
      stream(response, produce: produce, id: id)
      return false
    case .closeWithoutAnswer:
      return false
    case .resetConnection:
      connection.reset()
      return false
    }
  }

  private func stream(
    _ response: HTTPServerResponse, produce: @escaping @Sendable (EventStreamWriter) async -> Void,
    id: Int
  ) {
    let head = ResponseHead.serialize(
      status: response.status, headers: response.headers, contentLength: nil, close: true)
    do { try connection.send(head) } catch { return }
    let writer = EventStreamWriter(connection: connection)
    let done = DispatchSemaphore(value: 0)
    let task = handlers.start {
      await produce(writer)
      done.signal()
    }
    registry.setTask(task, writer: writer, for: id)
    defer { registry.setTask(nil, for: id) }
    // sync-wait: the connection's own thread
    while done.wait(timeout: .now() + Self.hangupCheck) == .timedOut {
      if connection.peerState(discardingInput: true) == .hungUp || !writer.isConnected {
        writer.markDisconnected()
        task.cancel()
        // The producer may be mid-write: the descriptor is closed only after it returned.
        done.wait()  // sync-wait: the connection's own thread; the producer was cancelled
        break
      }
    }
    writer.markDisconnected()
    if writer.resetRequested { connection.reset() }
  }

  private func refuse(_ rejection: HTTPRequestRejection) {
    var headers = HTTPHeaders()
    headers["Content-Type"] = "text/plain; charset=utf-8"
    let body = Data((rejection.description + "\n").utf8)
    let head = ResponseHead.serialize(
      status: rejection.status, headers: headers, contentLength: body.count, close: true)
    try? connection.send(head + body)
    connection.closeAfterDraining()
  }

  private static func milliseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds) * 1000
      + Int(duration.components.attoseconds / 1_000_000_000_000_000)
  }
}
