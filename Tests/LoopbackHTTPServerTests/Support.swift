import Foundation
import LoopbackHTTPServer
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A test failure raised when a bounded wait runs out.
struct TimedOut: Error, CustomStringConvertible {
  let what: String
  var description: String { "Timed out waiting for \(what)" }
}

/// Runs `operation`, failing with ``TimedOut`` after `seconds` (every wait in these tests is
/// bounded).
func within<T: Sendable>(
  _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      throw TimedOut(what: what)
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw TimedOut(what: what) }
    return first
  }
}

/// Runs blocking socket work on a thread of its own: blocking the two-thread concurrency pool
/// would starve the server's handlers.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// Sends `bytes` on a fresh connection and reads until the server closes it (or 5 s pass).
func rawExchange(_ bytes: [UInt8], port: UInt16) async throws -> String {
  try await onThread {
    let connection = try LoopbackConnection.connect(toLoopbackPort: port)
    defer { connection.close() }
    connection.setReceiveTimeout(milliseconds: 5000)
    try? connection.send(bytes)
    var answer: [UInt8] = []
    while let chunk = try? connection.receive(upTo: 65536), !chunk.isEmpty {
      answer += chunk
    }
    return String(decoding: answer, as: UTF8.self)
  }
}

func rawExchange(_ text: String, port: UInt16) async throws -> String {
  try await rawExchange(Array(text.utf8), port: port)
}

/// The status code of the first response in `raw` (0 when there is none).
func statusCode(of raw: String) -> Int {
  let parts = raw.split(separator: " ", maxSplits: 2)
  guard parts.count >= 2 else { return 0 }
  return Int(parts[1]) ?? 0
}

/// A plain URLSession with no cookies or caches, for talking to the server in tests.
func plainSession() -> URLSession {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.httpShouldSetCookies = false
  configuration.httpCookieStorage = nil
  configuration.urlCache = nil
  return URLSession(configuration: configuration)
}

/// A one-shot signal a test can await (boundedly, with ``within``).
final class Signal: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
  }

  func fire() { continuation.yield() }

  func wait() async {
    for await _ in stream { return }
  }
}
