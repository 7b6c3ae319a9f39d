import Foundation
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

/// Hostile or broken requests get a clear status and a closed connection; the server keeps
/// serving everyone else.
@Suite("Loopback server: hostile requests")
struct HostileRequestTests {
  private func makeServer(limits: LoopbackHTTPServer.Limits = .init()) throws -> LoopbackHTTPServer
  {
    var router = HTTPRouter()
    router.get("/hello") { _ in .text("hello") }
    router.post("/upload") { request in .text("\(request.body.count)") }
    return try LoopbackHTTPServer(limits: limits, router: router)
  }

  private func expectStillServing(_ server: LoopbackHTTPServer) async throws {
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(statusCode(of: raw) == 200, "the server stopped serving after hostile input")
  }

  @Test func aHugeHeaderSectionIs431() async throws {
    let server = try makeServer()
    let huge = String(repeating: "a", count: 1 << 20)
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: x\r\nX-Huge: \(huge)\r\n\r\n", port: server.port)
    #expect(statusCode(of: raw) == 431)
    #expect(raw.contains("exceeds 16384 bytes"))
    try await expectStillServing(server)
    await server.stop()
  }

  @Test func aHeaderSectionThatNeverEndsIs431() async throws {
    let server = try makeServer()
    let endless = String(repeating: "X-A: b\r\n", count: 4000)
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: x\r\n\(endless)", port: server.port)
    #expect(statusCode(of: raw) == 431)
    await server.stop()
  }

  @Test func tooManyHeaderFieldsIs431() async throws {
    let server = try makeServer(limits: .init(maxHeaderCount: 10))
    let fields = (0..<11).map { "X-\($0): v\r\n" }.joined()
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: x\r\n\(fields)\r\n", port: server.port)
    #expect(statusCode(of: raw) == 431)
    #expect(raw.contains("more than 10 header fields"))
    await server.stop()
  }

  @Test func anOversizedBodyIs413BeforeItIsRead() async throws {
    let server = try makeServer(limits: .init(maxBodyBytes: 1000))
    let raw = try await rawExchange(
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n\r\n"
        + String(repeating: "b", count: 200_000), port: server.port)
    #expect(statusCode(of: raw) == 413)
    let fits = try await rawExchange(
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n"
        + String(repeating: "b", count: 1000), port: server.port)
    #expect(fits.hasSuffix("\r\n\r\n1000"))
    await server.stop()
  }

  @Test(arguments: [
    ("GARBAGE\r\n\r\n", 400),
    ("GET /hello\r\nHost: x\r\n\r\n", 400),
    ("GET hello HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("G(T /hello HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ("GET /hello HTTP/1.1\r\n\r\n", 400),
    ("GET /hello HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", 400),
    ("GET /hello HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400),
    ("GET /hello HTTP/1.1\r\nHost: x\r\n folded: v\r\n\r\n", 400),
    ("GET /hello HTTP/1.1\r\nHost: x\r\nX: a\u{01}b\r\n\r\n", 400),
    ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
    ("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
    ("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505),
  ])
  func malformedRequestsGetAClearStatus(request: String, status: Int) async throws {
    let server = try makeServer()
    let raw = try await rawExchange(request, port: server.port)
    #expect(statusCode(of: raw) == status, "\(request.debugDescription) → \(raw)")
    #expect(raw.contains("Connection: close"))
    try await expectStillServing(server)
    await server.stop()
  }

  @Test func aStalledRequestIs408AfterTheReceiveTimeout() async throws {
    let server = try makeServer(limits: .init(receiveTimeout: .milliseconds(200)))
    let raw = try await rawExchange("GET /hello HTTP/1.1\r\nHost:", port: server.port)
    #expect(statusCode(of: raw) == 408)
    await server.stop()
  }

  @Test func bareLineFeedsAreAccepted() async throws {
    let server = try makeServer()
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\nHost: x\nConnection: close\n\n", port: server.port)
    #expect(statusCode(of: raw) == 200)
    await server.stop()
  }
}
