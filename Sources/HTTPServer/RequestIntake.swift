import ComposableCore
import Foundation
import HTTPMessages
import LoopbackSockets

/// Where connections wait for their next request: one ``ReadinessWatch`` thread reads each
/// request's bytes as they arrive, within the limits and deadlines, refuses what must be
/// refused (and logs it), and hands each whole request to a thread of its own
/// (``ServedConnection``). An idle or trickling client costs a descriptor, never a thread.
///
/// Deadlines, from ``LoopbackHTTPServer/Limits``: an idle connection is closed after
/// `receiveTimeout`; a request is answered 408 when it stays silent for `receiveTimeout` or
/// has not arrived whole `requestTimeout` after its first byte (slowloris). Past
/// `maxConnections`, a new connection is answered 503 and closed.
final class RequestIntake: Sendable {
  /// A connection and the bytes of its next request so far.
  struct Slot: Sendable {
    let id: Int
    let connection: LoopbackConnection
    var assembler: HTTPRequestAssembler
    /// When the request being read began (`nil`: idle, between requests).
    var requestStart: ContinuousClock.Instant?
    /// Since when the connection has been waiting: idle, or for the request's next byte.
    var waitingSince: ContinuousClock.Instant
  }

  /// How long a thread that just answered waits for the client's next request before handing
  /// the connection to the watch: a client sending requests back to back stays on one thread.
  private static let linger: Int32 = 25
  /// How long a refused connection is drained, so its client reads the answer.
  private static let drainTime = Duration.milliseconds(200)
  private static let chunkSize = 16 * 1024

  let configuration: ServedConnection.Configuration
  let registry: ConnectionRegistry
  private let watch: ReadinessWatch
  /// Where `onRefusal` is called, in order, so a slow log never holds up the watch's thread.
  private let refusalReports = DispatchQueue(label: "LoopbackHTTPServer.refusals")
  private let clock = ContinuousClock()

  init(configuration: ServedConnection.Configuration, registry: ConnectionRegistry) throws {
    self.configuration = configuration
    self.registry = registry
    self.watch = try ReadinessWatch(name: "LoopbackHTTPServer.intake")
  }

  /// Takes a connection just accepted (on the accept thread: returns at once).
  func admit(_ connection: LoopbackConnection) {
    switch registry.admit(connection) {
    case .admitted(let id):
      connection.setSendTimeout(milliseconds: configuration.limits.sendTimeout.wholeMilliseconds)
      let assembler = HTTPRequestAssembler(limits: configuration.requestLimits)
      wait(Slot(id: id, connection: connection, assembler: assembler, waitingSince: clock.now))
    case .full:
      let reason = "The server has \(registry.maxConnections) connections open; try again."
      refuse(connection, id: nil, HTTPRefusal(status: 503, reason: reason))
    case .stopping:
      connection.close()
    }
  }

  /// Goes on after an answer on a kept-alive connection: the next request when it is already
  /// here or arrives within a moment (answered on the calling thread), else `nil` — the
  /// connection then waits in the watch (or was refused or closed).
  func continueAfterAnswer(_ slot: Slot) -> (Slot, HTTPIncomingRequest)? {
    var slot = slot
    let now = clock.now
    slot.waitingSince = now
    slot.requestStart = slot.assembler.isMidRequest ? now : nil
    for lingered in [false, true] {
      switch advance(&slot) {
      case .request(let request): return (slot, request)
      case .ended: return nil
      case .needMore: break
      }
      if lingered || !slot.connection.waitUntilReadable(milliseconds: Self.linger) { break }
    }
    wait(slot)
    return nil
  }

  /// Ends every wait (closing those connections) and the watch's thread.
  func stop() async {
    await watch.stop()
  }

  /// Returns once every refusal reported so far has reached `onRefusal`.
  func flushRefusalReports(within limit: Duration) async {
    let resumed = LockIsolated(false)
    await withCheckedContinuation { continuation in
      let resumeOnce = { @Sendable in
        if resumed.withValue({ done in
          defer { done = true }
          return !done
        }) {
          continuation.resume()
        }
      }
      refusalReports.async(execute: resumeOnce)
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .milliseconds(limit.wholeMilliseconds), execute: resumeOnce)
    }
  }

  private enum Progress {
    case request(HTTPIncomingRequest)
    case needMore
    /// Refused or closed.
    case ended
  }

  /// Reads what arrived, without waiting, until a request is whole or nothing more is there.
  private func advance(_ slot: inout Slot) -> Progress {
    while true {
      do {
        switch try slot.assembler.next() {
        case .request(let request): return .request(request)
        case .continueExpected:
          guard slot.connection.sendWithoutWaiting(HTTPRequestAssembler.continueAnswer) else {
            registry.close(slot.id)  // a client that does not read its interim answer
            return .ended
          }
          continue
        case .needMore: break
        }
      } catch {
        refuse(slot, error)
        return .ended
      }
      let bytes: [UInt8]?
      do {
        bytes = try slot.connection.receiveWithoutWaiting(upTo: Self.chunkSize)
      } catch {
        registry.close(slot.id)
        return .ended
      }
      guard let bytes else { return .needMore }
      guard !bytes.isEmpty else {
        do {
          try slot.assembler.peerFinished()
          registry.close(slot.id)
        } catch {
          refuse(slot, error)
        }
        return .ended
      }
      slot.assembler.append(bytes)
      if slot.assembler.isMidRequest {
        let now = clock.now
        slot.requestStart = slot.requestStart ?? now
        slot.waitingSince = now
      }
    }
  }

  /// Watches `slot` until its bytes arrive or its deadline passes.
  private func wait(_ slot: Slot) {
    let limits = configuration.limits
    let idleEnd = slot.waitingSince + limits.receiveTimeout
    let deadline = slot.requestStart.map { min($0 + limits.requestTimeout, idleEnd) } ?? idleEnd
    watch.watch(slot.connection, until: deadline) { [self] event in
      var slot = slot
      switch event {
      case .stopped:
        registry.close(slot.id)
      case .deadlinePassed:
        if slot.assembler.isMidRequest {
          refuse(slot, .timedOut)
        } else {
          registry.close(slot.id)  // idle past its time: closed without a word
        }
      case .readable:
        switch advance(&slot) {
        case .request(let request): serve(slot, request)
        case .needMore: wait(slot)
        case .ended: break
        }
      }
    }
  }

  /// Answers `request` on a thread of its own.
  private func serve(_ slot: Slot, _ request: HTTPIncomingRequest) {
    let started = registry.startThread(named: "LoopbackHTTPServer.connection") { [self] in
      ServedConnection(intake: self).serve(slot, first: request)
    }
    if !started { registry.close(slot.id) }
  }

  private func refuse(_ slot: Slot, _ rejection: HTTPRequestRejection) {
    let line = slot.assembler.pendingRequestLine
    let refusal = HTTPRefusal(
      status: rejection.status, reason: rejection.description, method: line?.method,
      path: line?.path)
    refuse(slot.connection, id: slot.id, refusal)
  }

  /// Answers `refusal`, logs it, then drains and closes the connection (without a thread).
  private func refuse(_ connection: LoopbackConnection, id: Int?, _ refusal: HTTPRefusal) {
    // A connection the stopping server cut is not a client's fault: not reported.
    if let onRefusal = configuration.onRefusal, !registry.isStopping {
      refusalReports.async { onRefusal(refusal) }
    }
    var headers = HTTPHeaders()
    headers["Content-Type"] = "text/plain; charset=utf-8"
    if refusal.status == 503 { headers["Retry-After"] = "1" }
    let body = Data((refusal.reason + "\n").utf8)
    let head = ResponseHead.serialize(
      status: refusal.status, headers: headers, contentLength: body.count, close: true)
    _ = connection.sendWithoutWaiting(Array(head + body))
    connection.finishSending()
    drain(connection, id: id, until: clock.now + Self.drainTime)
  }

  /// Reads and drops what the peer still sends until it finishes or `deadline` passes, so it
  /// reads the refusal instead of a reset caused by unread bytes; then closes.
  private func drain(
    _ connection: LoopbackConnection, id: Int?, until deadline: ContinuousClock.Instant
  ) {
    watch.watch(connection, until: deadline) { [self] event in
      if event == .readable, let bytes = try? connection.receiveWithoutWaiting(upTo: 64 * 1024),
        !bytes.isEmpty
      {
        return drain(connection, id: id, until: deadline)
      }
      if let id { registry.close(id) } else { connection.close() }
    }
  }
}
