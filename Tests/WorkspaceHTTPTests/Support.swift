import ComposableCore
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

/// A loopback server that records every request it receives, routed by `configure`.
final class RecordingServer: Sendable {
  let server: LoopbackHTTPServer
  private let log: LockIsolated<[HTTPServerRequest]>

  init(_ configure: (inout HTTPRouter) -> Void) throws {
    var router = HTTPRouter()
    configure(&router)
    let log = LockIsolated<[HTTPServerRequest]>([])
    let routes = router
    self.log = log
    self.server = try LoopbackHTTPServer { request in
      log.withValue { $0.append(request) }
      return await routes.handle(request)
    }
  }

  var baseURL: URL { server.baseURL }

  /// Every request received so far, in order.
  var requests: [HTTPServerRequest] { log.withValue { $0 } }

  /// The requests received for `path`.
  func requests(to path: String) -> [HTTPServerRequest] {
    requests.filter { $0.path == path }
  }

  func stop() async { await server.stop() }
}

/// Collects lines (log lines, error messages) a test later searches for secrets.
final class LineCollector: Sendable {
  private let collected = LockIsolated<[String]>([])

  func append(_ line: String) { collected.withValue { $0.append(line) } }

  var lines: [String] { collected.withValue { $0 } }

  var logger: HTTPLogger {
    HTTPLogger { [collected] line in collected.withValue { $0.append(line) } }
  }
}

/// An async sequence's next element within `seconds`.
func next<S: AsyncSequence & Sendable>(
  _ sequence: S, within seconds: Double = 15, _ what: String
) async throws -> S.Element? where S.Element: Sendable {
  try await within(seconds, what) {
    var iterator = sequence.makeAsyncIterator()
    return try await iterator.next()
  }
}

/// The outcome of `operation`, error included, for asserting on concurrent calls.
func outcome<T: Sendable>(_ operation: () async throws -> T) async -> Result<T, any Error> {
  do {
    return .success(try await operation())
  } catch {
    return .failure(error)
  }
}
