import ComposableCore
import Foundation
import HTTPMessages
import LoopbackSockets

/// A small HTTP/1.1 server on 127.0.0.1, for tests, benchmarks and local reference servers.
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/hello") { _ in .text("hello") }
/// let server = try LoopbackHTTPServer(router: router)   // port 0: the kernel picks a free one
/// defer { Task { await server.stop() } }
/// let url = server.baseURL.appendingPathComponent("hello")
/// ```
///
/// Connections between requests wait in one watching thread, which reads each request as its
/// bytes arrive; a whole request is answered on a thread of its own, which also answers the
/// requests the client sends right after (keep-alive, pipelining), then hands the connection
/// back. So idle and slow clients cost no thread: 3,000 idle connections add none (see the
/// benchmarks' `server_threads_at_3000_idle`). An event stream holds its thread while it runs.
///
/// Requests are read within ``Limits``: a malformed request (two `Host` fields among them)
/// answers 400, an oversized header section or too many header fields 431, an oversized body
/// 413, a `Transfer-Encoding` 501, a request that stalls or trickles past its deadline 408,
/// a connection past the cap 503; the connection is then closed, and `onRefusal` hears of it.
/// Empty lines before a request line are ignored. A client that half-closes after its
/// request still gets its answer. Each request's handler runs as a task on its connection's
/// serial queue (back-to-back requests of one connection one after another), off the
/// cooperative pool, so a saturated pool does not slow the answers; a handler
/// whose client disconnects is cancelled.
public final class LoopbackHTTPServer: Sendable {
  /// Bounds on what one request may be, and on how long the server waits on a client.
  public struct Limits: Sendable, Equatable {
    /// The request line and header fields together, in bytes (default 16 KiB).
    public var maxHeadBytes: Int
    /// Header fields per request (default 100).
    public var maxHeaderCount: Int
    /// Body bytes per request (default 1 MiB).
    public var maxBodyBytes: Int
    /// How long a connection may stay silent mid-request, or idle between requests.
    public var receiveTimeout: Duration
    /// How long one write may wait for a client that stopped reading.
    public var sendTimeout: Duration
    /// How long a whole request (head and body) may take to arrive, from its first byte: a
    /// client trickling a byte now and then (slowloris) is answered 408 when it passes.
    public var requestTimeout: Duration
    /// Connections open at once; one more is answered 503 and closed.
    public var maxConnections: Int

    /// Limits; the defaults suit tests and local reference servers.
    public init(
      maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20,
      receiveTimeout: Duration = .seconds(10), sendTimeout: Duration = .seconds(10),
      requestTimeout: Duration = .seconds(10), maxConnections: Int = 1024
    ) {
      self.maxHeadBytes = maxHeadBytes
      self.maxHeaderCount = maxHeaderCount
      self.maxBodyBytes = maxBodyBytes
      self.receiveTimeout = receiveTimeout
      self.sendTimeout = sendTimeout
      self.requestTimeout = requestTimeout
      self.maxConnections = maxConnections
    }
  }

  /// The port the server listens on.
  public let port: UInt16
  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL
  private let listener: LoopbackListener
  private let connections: ConnectionRegistry
  private let intake: RequestIntake

  /// Starts listening on 127.0.0.1:`port` (0: a free port), answering with `handler`.
  /// `onRefusal` hears of every request and connection refused before a handler saw it, to log
  /// them as the handler logs the others. It is called in order on a queue of its own (a slow
  /// log never holds up the server); ``stop(timeout:)`` returns after its last call.
  public init(
    port: UInt16 = 0, limits: Limits = Limits(),
    onRefusal: (@Sendable (HTTPRefusal) -> Void)? = nil, handler: @escaping HTTPHandler
  ) throws {
    let connections = ConnectionRegistry(maxConnections: limits.maxConnections)
    let intake: RequestIntake
    do {
      intake = try RequestIntake(
        configuration: .init(limits: limits, onRefusal: onRefusal, handler: handler),
        registry: connections)
      listener = try LoopbackListener(port: port) { intake.admit($0) }
    } catch {
      throw LoopbackHTTPServerError.cannotListen(port: port, reason: "\(error)")
    }
    self.connections = connections
    self.intake = intake
    self.port = listener.port
    self.baseURL =
      URL(string: "http://127.0.0.1:\(listener.port)")
      ?? URL(fileURLWithPath: "/")
  }

  /// Starts listening on 127.0.0.1:`port` (0: a free port), answering through `router`.
  public convenience init(
    port: UInt16 = 0, limits: Limits = Limits(),
    onRefusal: (@Sendable (HTTPRefusal) -> Void)? = nil, router: HTTPRouter
  ) throws {
    try self.init(port: port, limits: limits, onRefusal: onRefusal) { await router.handle($0) }
  }

  /// Stops accepting, disconnects every client (cancelling their handlers and streams) and
  /// returns once every connection thread has ended and `onRefusal` has heard of every
  /// refusal made before, or after `timeout` if a handler or `onRefusal` blocks. A connection
  /// the stopping server cuts is not reported. Calling it again does nothing more.
  public func stop(timeout: Duration = .seconds(5)) async {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    await listener.stop()
    // The waiting connections first: a connection cut while it waits is not a refusal.
    await intake.stop()
    connections.disconnectAll()
    await connections.waitForThreads(timeout: timeout)
    await intake.flushRefusalReports(within: max(.zero, deadline - clock.now))
  }

  /// How many client connections are open right now.
  public var openConnectionCount: Int { connections.openCount }
}

/// The server could not start.
public enum LoopbackHTTPServerError: Error, Equatable, CustomStringConvertible {
  case cannotListen(port: UInt16, reason: String)

  public var description: String {
    switch self {
    case .cannotListen(let port, let reason): "Cannot listen on 127.0.0.1:\(port): \(reason)"
    }
  }
}
