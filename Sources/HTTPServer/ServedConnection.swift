import ComposableCore
import Foundation
import HTTPMessages
import LoopbackSockets

/// Answers requests on one connection, on a thread of its own: runs the handler, writes the
/// answer, and goes on with the requests that follow at once; when the client goes quiet, the
/// connection goes back to the ``RequestIntake`` and the thread ends.
struct ServedConnection {
  struct Configuration: Sendable {
    let limits: LoopbackHTTPServer.Limits
    let onRefusal: (@Sendable (HTTPRefusal) -> Void)?
    let handler: HTTPHandler

    var requestLimits: HTTPRequestLimits {
      HTTPRequestLimits(
        maxHeadBytes: limits.maxHeadBytes, maxHeaderCount: limits.maxHeaderCount,
        maxBodyBytes: limits.maxBodyBytes)
    }
  }

  /// How often a thread waiting on a handler checks whether its client hung up.
  private static let hangupCheck = DispatchTimeInterval.milliseconds(50)
  /// How long a stream's cancelled producer may take to return before its thread gives up on
  /// it (a stream's connection is abandoned, never closed: see
  /// ``ConnectionRegistry/abandon(_:)``).
  private static let producerGrace = DispatchTimeInterval.seconds(5)
  /// An interim answer (RFC 9110 §15.2) that tells a half-closed client from a gone one.
  private static let processing = Array("HTTP/1.1 102 Processing\r\n\r\n".utf8)

  let intake: RequestIntake
  private var registry: ConnectionRegistry { intake.registry }
  private var configuration: Configuration { intake.configuration }
  /// Runs this connection's handlers, one request at a time, off the cooperative pool.
  private let handlers = HandlerExecutor(label: "LoopbackHTTPServer.connection")

  init(intake: RequestIntake) {
    self.intake = intake
  }

  /// Answers `first`, then each request that follows at once; returns when the connection was
  /// closed or handed back to the intake.
  func serve(_ slot: RequestIntake.Slot, first: HTTPIncomingRequest) {
    var (slot, incoming) = (slot, first)
    while true {
      let request = HTTPServerRequest(
        method: incoming.head.method, target: incoming.head.target,
        headers: incoming.head.headers, body: incoming.body)
      guard let answered = answer(request, version: incoming.head.version, on: slot) else {
        return registry.close(slot.id)
      }
      // A client that finished sending is answered what it already sent (pipelined requests
      // still buffered), then the connection closes.
      let clientSentEverything = answered.peerFinishedSending && !slot.assembler.isMidRequest
      let keepAlive = incoming.head.keepsAlive && !clientSentEverything
      guard deliver(answered.response, to: request, keepAlive: keepAlive, on: slot) else {
        return registry.close(slot.id)
      }
      guard let next = intake.continueAfterAnswer(slot) else { return }
      (slot, incoming) = next
    }
  }

  /// Runs the handler as a task, waiting on this thread; `nil` when the client hung up first
  /// (the handler is then cancelled and its answer dropped).
  ///
  /// A client that finished sending may have half-closed (it still reads its answer) or
  /// closed; only a write tells, as a closed peer answers it with a reset. So an HTTP/1.1
  /// client that finished sending while its handler runs gets `102 Processing`, which every
  /// HTTP/1.1 client must accept, and a reset then cancels the handler. HTTP/1.0 has no interim
  /// answers: its handler runs to the end and the answer is written (or fails) then.
  private func answer(_ request: HTTPServerRequest, version: String, on slot: RequestIntake.Slot)
    -> (response: HTTPServerResponse, peerFinishedSending: Bool)?
  {
    let result = LockIsolated<HTTPServerResponse?>(nil)
    let done = DispatchSemaphore(value: 0)
    let handler = configuration.handler
    let task = handlers.start {
      let response = await handler(request)
      result.setValue(response)
      done.signal()
    }
    registry.setTask(task, for: slot.id)
    defer { registry.setTask(nil, for: slot.id) }
    var watching = true
    var finishedSending = false
    // sync-wait: the connection's own thread (RequestIntake starts one per answered request)
    while done.wait(timeout: .now() + Self.hangupCheck) == .timedOut {
      guard watching else { continue }
      switch slot.connection.peerState(discardingInput: false) {
      case .hungUp:
        task.cancel()
        return nil
      case .finishedSending where !finishedSending:
        finishedSending = true
        if version == "HTTP/1.1" { try? slot.connection.send(Self.processing) }
      case .sentData: watching = false  // a pipelined request: stop peeking until this ends
      case .open, .finishedSending: break
      }
    }
    return result.current.map { ($0, finishedSending) }
  }

  /// Writes `response`; answers whether the connection stays open for another request.
  private func deliver(
    _ response: HTTPServerResponse, to request: HTTPServerRequest, keepAlive: Bool,
    on slot: RequestIntake.Slot
  ) -> Bool {
    switch response.body {
    case .bytes(let body):
      let head = ResponseHead.serialize(
        status: response.status, headers: response.headers, contentLength: body.count,
        close: !keepAlive)
      let bytes = request.method == .head ? head : head + body
      do { try slot.connection.send(bytes) } catch { return false }
      return keepAlive
    case .eventStream(let produce):
      stream(response, produce: produce, on: slot)
      // Never closed here: a writer the producer handed elsewhere may still hold the
      // connection, and a descriptor closed under it could be reused by another client. It
      // closes with its last owner (at once, usually: this slot).
      registry.abandon(slot.id)
      return false
    case .closeWithoutAnswer:
      return false
    case .resetConnection:
      slot.connection.reset()
      return false
    }
  }

  /// Streams events until the producer returns or the client leaves (then waits up to
  /// ``producerGrace`` for the cancelled producer). A stream holds its thread for as long as
  /// it runs.
  private func stream(
    _ response: HTTPServerResponse, produce: @escaping @Sendable (EventStreamWriter) async -> Void,
    on slot: RequestIntake.Slot
  ) {
    let connection = slot.connection
    let head = ResponseHead.serialize(
      status: response.status, headers: response.headers, contentLength: nil, close: true)
    do { try connection.send(head) } catch { return }
    let writer = EventStreamWriter(connection: connection)
    let done = DispatchSemaphore(value: 0)
    let task = handlers.start {
      await produce(writer)
      done.signal()
    }
    registry.setTask(task, writer: writer, for: slot.id)
    defer { registry.setTask(nil, for: slot.id) }
    // sync-wait: the connection's own thread
    while done.wait(timeout: .now() + Self.hangupCheck) == .timedOut {
      // A stream's client sends nothing: finishing its side means it left.
      let peer = connection.peerState(discardingInput: true)
      if peer == .hungUp || peer == .finishedSending || !writer.isConnected {
        writer.markDisconnected()
        task.cancel()
        connection.shutDown()  // a write in progress fails at once
        // sync-wait: the connection's own thread; the producer was cancelled; bounded
        _ = done.wait(timeout: .now() + Self.producerGrace)
        return
      }
    }
    writer.markDisconnected()
    if writer.resetRequested { connection.reset() }
  }
}
