import ComposableCore
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import LoopbackSockets
import Testing
import WorkspaceHTTP

/// Clients that trickle, hoard connections, half-close or send odd but legal bytes: the server
/// answers each as HTTP says, logs every refusal, and keeps serving everyone else.
@Suite("Loopback server: misbehaving clients")
struct MisbehavingClientTests {
  /// What `onRefusal` heard; complete once `server.stop()` returned.
  private let refusals = LockIsolated<[HTTPRefusal]>([])

  private func makeServer(limits: LoopbackHTTPServer.Limits = .init()) throws -> LoopbackHTTPServer
  {
    var router = HTTPRouter()
    router.get("/hello") { _ in .text("hello") }
    router.get("/slow") { _ in
      try? await Task.sleep(for: .milliseconds(300))
      return .text("slow")
    }
    let refusals = self.refusals
    return try LoopbackHTTPServer(
      limits: limits, onRefusal: { refusal in refusals.withValue { $0.append(refusal) } },
      router: router)
  }

  private func expectServing(_ server: LoopbackHTTPServer) async throws {
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(statusCode(of: raw) == 200, "the server stopped serving: \(raw)")
  }

  @Test func aHeadTrickledLineByLineIs408AtTheRequestDeadline() async throws {
    // Never silent for long (the receive timeout never passes), but never done either.
    let server = try makeServer(
      limits: .init(receiveTimeout: .seconds(10), requestTimeout: .milliseconds(500)))
    let port = server.port
    let (answer, linesSent) = try await onThread { () -> (String, Int) in
      let connection = try LoopbackConnection.connect(toLoopbackPort: port)
      defer { connection.close() }
      try connection.send(Array("GET /hello HTTP/1.1\r\nHost: x\r\n".utf8))
      // At most 10 s of trickling; the deadline is half a second.
      for line in 0..<100 {
        if connection.waitUntilReadable(milliseconds: 100) {
          connection.setReceiveTimeout(milliseconds: 5000)
          var answer: [UInt8] = []
          while let chunk = try? connection.receive(upTo: 4096), !chunk.isEmpty { answer += chunk }
          return (String(decoding: answer, as: UTF8.self), line)
        }
        guard (try? connection.send(Array("X-Line-\(line): a\r\n".utf8))) != nil else { break }
      }
      return ("", 100)
    }
    #expect(statusCode(of: answer) == 408, "no 408 after \(linesSent) trickled lines: \(answer)")
    #expect(linesSent < 100)
    try await expectServing(server)
    await server.stop()
    #expect(refusals.current.map(\.status) == [408])
    #expect(refusals.current.first?.method == "GET")
    #expect(refusals.current.first?.path == "/hello")
  }

  @Test func pastTheConnectionCapANewClientIs503AndServedOnceOneLeaves() async throws {
    let server = try makeServer(limits: .init(maxConnections: 4))
    let port = server.port
    let idle = try await onThread {
      try (0..<4).map { _ in try LoopbackConnection.connect(toLoopbackPort: port) }
    }
    try await within(10, "the four idle connections to be admitted") {
      while server.openConnectionCount < 4 { try await Task.sleep(for: .milliseconds(10)) }
    }
    let refused = try await rawExchange("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
    #expect(statusCode(of: refused) == 503)
    #expect(refused.contains("Retry-After: 1\r\n"))
    #expect(refused.contains("4 connections open"))
    idle[0].close()
    try await within(10, "the closed connection to be let go") {
      while server.openConnectionCount > 3 { try await Task.sleep(for: .milliseconds(10)) }
    }
    try await expectServing(server)
    for connection in idle { connection.close() }
    await server.stop()
    #expect(refusals.current.map(\.status) == [503])
    #expect(refusals.current.first?.path == nil, "a refused connection has no request line")
  }

  @Test func idleConnectionsStayOpenUntilTheReceiveTimeoutAndAreThenClosedQuietly() async throws {
    let server = try makeServer(limits: .init(receiveTimeout: .milliseconds(300)))
    let raw = try await rawExchange([], port: server.port)
    #expect(raw.isEmpty, "an idle connection got an answer: \(raw)")
    await server.stop()
    #expect(refusals.current.isEmpty, "closing an idle connection is not a refusal")
  }

  @Test(arguments: ["HTTP/1.1", "HTTP/1.0"])
  func aClientThatHalfClosesAfterItsRequestGetsItsAnswer(version: String) async throws {
    let server = try makeServer()
    let port = server.port
    for path in ["/hello", "/slow"] {
      let answer = try await onThread { () -> String in
        let connection = try LoopbackConnection.connect(toLoopbackPort: port)
        defer { connection.close() }
        connection.setReceiveTimeout(milliseconds: 5000)
        try connection.send(Array("GET \(path) \(version)\r\nHost: x\r\n\r\n".utf8))
        connection.finishSending()
        var answer: [UInt8] = []
        while let chunk = try? connection.receive(upTo: 4096), !chunk.isEmpty { answer += chunk }
        return String(decoding: answer, as: UTF8.self)
      }
      // A slow HTTP/1.1 answer may come after an interim 102, which HTTP/1.1 clients skip.
      let final = answer.replacingOccurrences(of: "HTTP/1.1 102 Processing\r\n\r\n", with: "")
      #expect(statusCode(of: final) == 200, "\(version) \(path): \(answer)")
      #expect(final.hasSuffix("\r\n\r\n\(path.dropFirst())"), "\(version) \(path): \(answer)")
      if path == "/slow" {
        // Noticed while the handler ran: the answer says the connection ends with it.
        #expect(final.contains("Connection: close\r\n"), "a half-closed client sends no more")
      }
      if version == "HTTP/1.0" { #expect(!answer.contains(" 102 "), "HTTP/1.0 has no 1xx") }
    }
    await server.stop()
  }

  @Test func pipelinedRequestsFromAClientThatHalfClosedAreAllAnswered() async throws {
    let server = try makeServer()
    let port = server.port
    let request = "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"
    let answer = try await onThread { () -> String in
      let connection = try LoopbackConnection.connect(toLoopbackPort: port)
      defer { connection.close() }
      connection.setReceiveTimeout(milliseconds: 5000)
      try connection.send(Array((request + request + request).utf8))
      connection.finishSending()
      var answer: [UInt8] = []
      while let chunk = try? connection.receive(upTo: 4096), !chunk.isEmpty { answer += chunk }
      return String(decoding: answer, as: UTF8.self)
    }
    let finals = answer.replacingOccurrences(of: "HTTP/1.1 102 Processing\r\n\r\n", with: "")
    #expect(finals.components(separatedBy: "HTTP/1.1 200 OK").count == 4, "\(answer)")
    #expect(finals.components(separatedBy: "Connection: close").count == 2, "only the last closes")
    await server.stop()
    #expect(refusals.current.isEmpty)
  }

  @Test func anHTTP10ClientsExpectIsIgnored() async throws {
    let server = try makeServer()
    let port = server.port
    let (interim, answer) = try await onThread { () -> (Bool, String) in
      let connection = try LoopbackConnection.connect(toLoopbackPort: port)
      defer { connection.close() }
      connection.setReceiveTimeout(milliseconds: 5000)
      try connection.send(
        Array("POST /hello HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
      let interim = connection.waitUntilReadable(milliseconds: 300)
      try connection.send(Array("hi".utf8))
      var answer: [UInt8] = []
      while let chunk = try? connection.receive(upTo: 4096), !chunk.isEmpty { answer += chunk }
      return (interim, String(decoding: answer, as: UTF8.self))
    }
    #expect(!interim, "an HTTP/1.0 client was sent something before its body: \(answer)")
    #expect(!answer.contains("100 Continue"), "\(answer)")
    #expect(answer.hasPrefix("HTTP/1.1 "), "the request was answered: \(answer)")
    await server.stop()
  }

  @Test func emptyLinesBeforeARequestLineAreIgnored() async throws {
    let server = try makeServer()
    let raw = try await rawExchange(
      "\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n"
        + "Connection: close\r\n\r\n", port: server.port)
    #expect(raw.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(raw)")
    await server.stop()
    #expect(refusals.current.isEmpty)
  }

  @Test func twoHostFieldsAre400() async throws {
    let server = try makeServer()
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", port: server.port)
    #expect(statusCode(of: raw) == 400)
    #expect(raw.contains("more than one Host header"))
    await server.stop()
  }

  @Test(
    arguments: [
      ("GET /hello?token=secret HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "GET", "/hello"),
      ("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505, "GET", "/hello"),
      (
        "POST /hello HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 501, "POST",
        "/hello"
      ),
      (
        "POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", 413, "POST", "/hello"
      ),
      (
        "GET /hello HTTP/1.1\r\nX: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431, "GET",
        "/hello"
      ),
      ("GARBAGE\r\n\r\n", 400, nil, nil),
    ] as [(String, Int, String?, String?)])
  func everyRefusalIsReportedWithoutItsQuery(
    request: String, status: Int, method: String?, path: String?
  ) async throws {
    let server = try makeServer()
    let raw = try await rawExchange(request, port: server.port)
    #expect(statusCode(of: raw) == status)
    await server.stop()
    let reported = refusals.current
    #expect(reported.count == 1)
    #expect(reported.first?.status == status)
    #expect(reported.first?.method == method)
    #expect(reported.first?.path == path)
    #expect(!(reported.first?.description.contains("secret") ?? true), "a query reached the log")
  }
}
