import ComposableCore
import Foundation
import LoopbackSockets
import WorkspaceHTTP

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
/// Each connection is served on a thread of its own (blocking socket I/O never occupies the
/// Swift concurrency pool) and kept alive between requests. Requests are read within
/// ``Limits``: a malformed request answers 400, an oversized header section or too many header
/// fields 431, an oversized body 413, a `Transfer-Encoding` 501, a stalled request 408; the
/// connection is then closed. Handlers run as tasks on a serial queue of their connection's,
/// off the cooperative pool, so a saturated pool does not slow the answers; a handler whose
/// client disconnects is cancelled.
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

    /// Limits; the defaults suit tests and local reference servers.
    public init(
      maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20,
      receiveTimeout: Duration = .seconds(10), sendTimeout: Duration = .seconds(10)
    ) {
      self.maxHeadBytes = maxHeadBytes
      self.maxHeaderCount = maxHeaderCount
      self.maxBodyBytes = maxBodyBytes
      self.receiveTimeout = receiveTimeout
      self.sendTimeout = sendTimeout
    }
  }

  /// The port the server listens on.
  public let port: UInt16
  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL
  private let listener: LoopbackListener
  private let connections: ConnectionRegistry

  /// Starts listening on 127.0.0.1:`port` (0: a free port), answering with `handler`.
  public init(
    port: UInt16 = 0, limits: Limits = Limits(), handler: @escaping HTTPHandler
  ) throws {
    let connections = ConnectionRegistry()
    let served = ServedConnection.Configuration(limits: limits, handler: handler)
    do {
      listener = try LoopbackListener(port: port) { connection in
        ServedConnection(connection: connection, configuration: served, registry: connections)
          .serve()
      }
    } catch {
      throw LoopbackHTTPServerError.cannotListen(port: port, reason: error.description)
    }
    self.connections = connections
    self.port = listener.port
    self.baseURL =
      URL(string: "http://127.0.0.1:\(listener.port)")
      ?? URL(fileURLWithPath: "/")
  }

  /// Starts listening on 127.0.0.1:`port` (0: a free port), answering through `router`.
  public convenience init(port: UInt16 = 0, limits: Limits = Limits(), router: HTTPRouter) throws {
    try self.init(port: port, limits: limits) { await router.handle($0) }
  }

  /// Stops accepting, disconnects every client (cancelling their handlers and streams) and
  /// returns once every connection thread has ended, or after `timeout` if a handler ignores
  /// cancellation. Calling it again does nothing more.
  public func stop(timeout: Duration = .seconds(5)) async {
    await listener.stop()
    await connections.closeAll(timeout: timeout)
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
