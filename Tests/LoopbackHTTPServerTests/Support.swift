import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import LoopbackSockets
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
