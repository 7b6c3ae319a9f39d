import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import LoopbackSockets
import Testing
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Loopback server: streams, disconnects, stop")
struct ServerLifecycleTests {
  @Test func streamsEventsAndNoticesTheClientLeaving() async throws {
    let left = Signal()
    var router = HTTPRouter()
    router.get("/live") { _ in
      .eventStream { writer in
        try? writer.send(
          ServerSentEvent(type: "merged", data: "P1\nP2", id: "7"), retry: .seconds(2))
        try? writer.comment("heartbeat")
        await writer.disconnected()
        #expect(!writer.isConnected)
        left.fire()
      }
    }
    let server = try LoopbackHTTPServer(router: router)
    let port = server.port
    let received = try await onThread { () -> String in
      let connection = try LoopbackConnection.connect(toLoopbackPort: port)
      connection.setReceiveTimeout(milliseconds: 5000)
      try connection.send(Array("GET /live HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
      var text = ""
      while !text.contains(": heartbeat\n"), let chunk = try? connection.receive(upTo: 4096),
        !chunk.isEmpty
      {
        text += String(decoding: chunk, as: UTF8.self)
      }
      connection.close()
      return text
    }
    #expect(received.contains("Content-Type: text/event-stream\r\n"))
    #expect(received.contains("Connection: close\r\n"))
    #expect(
      received.hasSuffix(
        "\r\n\r\nretry: 2000\nid: 7\nevent: merged\ndata: P1\ndata: P2\n\n: heartbeat\n"))
    try await left.wait("the server to notice the client left")
    await server.stop()
  }

  @Test func aHandlerWhoseClientLeftIsCancelled() async throws {
    let cancelled = Signal()
    let started = Signal()
    var router = HTTPRouter()
    router.get("/slow") { _ in
      started.fire()
      do {
        try await Task.sleep(for: .seconds(60))
      } catch {
        cancelled.fire()
      }
      return .text("late")
    }
    let server = try LoopbackHTTPServer(router: router)
    let port = server.port
    let client = Task {
      try await onThread {
        let connection = try LoopbackConnection.connect(toLoopbackPort: port)
        try connection.send(Array("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        return connection
      }
    }
    try await started.wait("the handler to start")
    try await client.value.close()
    try await cancelled.wait("the handler to be cancelled")
    await server.stop()
  }

  @Test func stopDisconnectsClientsCancelsHandlersAndFreesThePort() async throws {
    let streamEnded = Signal()
    let streaming = Signal()
    var router = HTTPRouter()
    router.get("/live") { _ in
      .eventStream { writer in
        streaming.fire()
        await writer.disconnected()
        streamEnded.fire()
      }
    }
    let server = try LoopbackHTTPServer(router: router)
    let port = server.port
    let reader = Task {
      try await onThread { () -> String in
        let connection = try LoopbackConnection.connect(toLoopbackPort: port)
        defer { connection.close() }
        // Longer than the test's own bounds: the stream stays silent until the server stops,
        // and a client giving up first would close the connection the test counts.
        connection.setReceiveTimeout(milliseconds: 30_000)
        try connection.send(Array("GET /live HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        var text = ""
        while let chunk = try? connection.receive(upTo: 4096), !chunk.isEmpty {
          text += String(decoding: chunk, as: UTF8.self)
        }
        return text
      }
    }
    try await streaming.wait("the stream to start")
    #expect(server.openConnectionCount == 1)
    try await within(15, "stop") { await server.stop() }
    try await streamEnded.wait("the stream to end")
    let text = try await within(15, "the client to see the end") { try await reader.value }
    #expect(text.hasPrefix("HTTP/1.1 200 OK"))
    #expect(server.openConnectionCount == 0)
    #expect(throws: LoopbackSocketError.self) {
      try LoopbackConnection.connect(toLoopbackPort: port)
    }
    await server.stop()
  }

  @Test func faultInjectionClosesOrResetsWithoutAnAnswer() async throws {
    var router = HTTPRouter()
    router.get("/lost") { _ in .closeWithoutAnswer }
    router.get("/reset") { _ in .resetConnection }
    let server = try LoopbackHTTPServer(router: router)
    let session = plainSession()
    await #expect(throws: URLError.self) {
      _ = try await session.data(from: server.baseURL.appendingPathComponent("lost"))
    }
    do {
      _ = try await session.data(from: server.baseURL.appendingPathComponent("reset"))
      Issue.record("a reset connection gave an answer")
    } catch let error as URLError {
      #expect(error.code == .networkConnectionLost)
    }
    await server.stop()
  }
}
