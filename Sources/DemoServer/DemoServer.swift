import DemoHTTPProtocol
import Foundation
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// The demo's reference server: a ``DemoService`` on 127.0.0.1 over real sockets. What
/// `demo-cli serve --port N` runs, and `demo-cli --backend http --remote new` starts in
/// process.
///
/// ```swift
/// let server = try DemoServer()          // a free port
/// print(server.baseURL)                  // http://127.0.0.1:41234
/// // … demo-cli --backend http --remote http://127.0.0.1:41234 …
/// await server.stop()
/// ```
public final class DemoServer: Sendable {
  /// The service answering the requests.
  public let service: DemoService
  private let server: LoopbackHTTPServer

  /// Serves `service` on 127.0.0.1:`port` (0: a free port).
  public init(port: UInt16 = 0, service: DemoService = DemoService()) throws {
    self.service = service
    self.server = try LoopbackHTTPServer(
      port: port, onRefusal: { service.log($0) }, handler: { await service.handle($0) })
  }

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { server.baseURL }

  /// The port it listens on.
  public var port: UInt16 { server.port }

  /// Stops accepting, disconnects every client (event streams included) and returns once they
  /// are closed.
  public func stop() async {
    await server.stop()
  }
}
