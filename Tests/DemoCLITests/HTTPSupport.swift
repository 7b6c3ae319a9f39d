import ComposableCore
import DemoHTTPBackend
import DemoHTTPProtocol
import DemoServer
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

@testable import demo_cli

/// What a test puts between the client and the reference service: it may answer by itself,
/// call `next` (the service) and change or drop the answer.
typealias Interception =
  @Sendable (
    HTTPServerRequest, _ next: @Sendable () async -> HTTPServerResponse
  ) async -> HTTPServerResponse

/// A reference service on a fixed loopback port that a test can restart (a fresh system, the
/// same port), wrap in faults (``intercept``), and read the requests of.
final class FaultyServer: Sendable {
  /// One request as it reached the server, and how it was answered.
  struct Exchange: Sendable {
    let request: HTTPServerRequest
    let status: Int
    /// Which start of the server answered it (0 first, 1 after a restart…).
    let generation: Int
  }

  private struct Running {
    var service: DemoService
    var server: LoopbackHTTPServer
    var generation: Int
  }

  let port: UInt16
  private let configuration: DemoService.Configuration
  private let running: LockIsolated<Running>
  private let interception = LockIsolated<Interception?>(nil)
  private let log = LockIsolated<[Exchange]>([])

  init(configuration: DemoService.Configuration = .init()) throws {
    self.configuration = configuration
    let service = DemoService(configuration: configuration)
    let interception = self.interception
    let log = self.log
    let server = try Self.serve(service, port: 0, generation: 0, interception, log)
    port = server.port
    running = LockIsolated(Running(service: service, server: server, generation: 0))
  }

  private static func serve(
    _ service: DemoService, port: UInt16, generation: Int,
    _ interception: LockIsolated<Interception?>, _ log: LockIsolated<[Exchange]>
  ) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer(port: port) { request in
      let next: @Sendable () async -> HTTPServerResponse = { await service.handle(request) }
      let response: HTTPServerResponse
      if let intercept = interception.current {
        response = await intercept(request, next)
      } else {
        response = await next()
      }
      log.withValue {
        $0.append(Exchange(request: request, status: response.status, generation: generation))
      }
      return response
    }
  }

  var baseURL: URL { running.current.server.baseURL }
  var service: DemoService { running.current.service }
  var system: any ServedSystem { service.system }
  var exchanges: [Exchange] { log.current }

  /// Sets (or clears) what is put between the client and the service.
  func intercept(_ body: Interception?) { interception.setValue(body) }

  /// Stops the server (its system, sessions and streams are gone) and starts a fresh one on the
  /// same port.
  func restart() async throws {
    let old = running.current
    await old.server.stop()
    let service = DemoService(configuration: configuration)
    // The freed port may be handed to another test's listener or client socket for a moment
    // (both ask the kernel for free ports): try again for a bounded while.
    var attempts = 0
    while true {
      do {
        let server = try Self.serve(
          service, port: port, generation: old.generation + 1, interception, log)
        running.setValue(
          Running(service: service, server: server, generation: old.generation + 1))
        return
      } catch  where attempts < 100 {
        attempts += 1
        try await Task.sleep(for: .milliseconds(100))
      }
    }
  }

  func stop() async { await running.current.server.stop() }
}

/// An HTTP backend on `server` with test timeouts.
func httpBackend(
  _ url: URL, timeout: Duration = .seconds(10), publishAttempts: Int = 3,
  logger: HTTPLogger? = nil
) -> HTTPBackend {
  HTTPBackend(
    server: url,
    configuration: HTTPBackendConfiguration(
      timeout: timeout, publishAttempts: publishAttempts,
      publishBackoff: Backoff(initial: .milliseconds(100), maximum: .milliseconds(200)),
      signInTimeout: .seconds(20), liveIdleTimeout: .seconds(20), logger: logger))
}

/// A started host on `backend` and its executor.
@MainActor
func httpExecutor(_ backend: HTTPBackend) async -> CommandExecutor {
  let host = DemoHost(backend: backend)
  await host.start()
  return CommandExecutor(host: host)
}

/// Lines collected from any thread (log lines, server lines).
final class Lines: Sendable {
  private let lines = LockIsolated<[String]>([])
  func append(_ line: String) { lines.withValue { $0.append(line) } }
  var all: [String] { lines.current }
  var logger: HTTPLogger { HTTPLogger { [lines] line in lines.withValue { $0.append(line) } } }
}
