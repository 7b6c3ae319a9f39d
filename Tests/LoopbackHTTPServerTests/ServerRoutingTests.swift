import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import LoopbackSockets
import Testing
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Loopback server: routing and ordinary answers")
struct ServerRoutingTests {
  private func makeServer() throws -> LoopbackHTTPServer {
    var router = HTTPRouter()
    router.get("/hello") { _ in .text("hello") }
    router.post("/echo") { request in
      var response = HTTPServerResponse.text(String(decoding: request.body, as: UTF8.self))
      response.headers["X-Query"] = request.queryValue("q") ?? "none"
      return response
    }
    router.add(.put, "/proposals/{id}/title") { request in
      .text("\(request.pathParameters["id"] ?? "?"):\(request.formFields["title"] ?? "?")")
    }
    router.get("/cookies") { request in
      var response = HTTPServerResponse.text(
        request.cookies.sorted { $0.key < $1.key }
          .map { "\($0.key)=\($0.value)" }.joined(separator: ","))
      response.setCookie(SetCookie(name: "session", value: "s1", maxAge: 60, httpOnly: true))
      response.setCookie(SetCookie(name: "csrf", value: "c1", sameSite: "Strict"))
      return response
    }
    return try LoopbackHTTPServer(router: router)
  }

  @Test func answersRoutesOverURLSessionOnAKernelChosenPort() async throws {
    let server = try makeServer()
    let other = try makeServer()
    #expect(server.port != 0)
    #expect(server.port != other.port)
    let session = plainSession()
    let (body, response) = try await session.data(
      from: server.baseURL.appendingPathComponent("hello"))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: body, as: UTF8.self) == "hello")

    var post = URLRequest(url: try #require(URL(string: "\(server.baseURL)/echo?q=a%20b")))
    post.httpMethod = "POST"
    post.httpBody = Data("payload".utf8)
    let (echo, echoResponse) = try await session.data(for: post)
    #expect(String(decoding: echo, as: UTF8.self) == "payload")
    #expect((echoResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Query") == "a b")
    await server.stop()
    await other.stop()
  }

  @Test func unknownPathsAre404AndOtherMethods405WithAllow() async throws {
    let server = try makeServer()
    let missing = try await rawExchange(
      "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(statusCode(of: missing) == 404)
    let wrongMethod = try await rawExchange(
      "DELETE /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(statusCode(of: wrongMethod) == 405)
    #expect(wrongMethod.contains("Allow: GET\r\n"))
    await server.stop()
  }

  @Test func pathParametersAndFormFieldsAreDecoded() async throws {
    let server = try makeServer()
    let body = "title=New+name%21"
    let raw = try await rawExchange(
      "PUT /proposals/P%201/title HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n"
        + "Connection: close\r\n\r\n\(body)", port: server.port)
    #expect(statusCode(of: raw) == 200)
    #expect(raw.hasSuffix("\r\n\r\nP 1:New name!"))
    await server.stop()
  }

  @Test func cookiesAreReadAndSetCookieLinesWritten() async throws {
    let server = try makeServer()
    let raw = try await rawExchange(
      "GET /cookies HTTP/1.1\r\nHost: x\r\nCookie: b=2; a=1\r\nConnection: close\r\n\r\n",
      port: server.port)
    #expect(raw.contains("Set-Cookie: session=s1; Path=/; Max-Age=60; HttpOnly\r\n"))
    #expect(raw.contains("Set-Cookie: csrf=c1; Path=/; SameSite=Strict\r\n"))
    #expect(raw.hasSuffix("a=1,b=2"))
    await server.stop()
  }

  @Test func keepsTheConnectionAliveAndAnswersPipelinedRequestsInOrder() async throws {
    let server = try makeServer()
    let raw = try await rawExchange(
      "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
        + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
        + "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    let statuses = raw.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
    #expect(statuses == ["200", "200", "200"])
    #expect(raw.contains("\r\n\r\nabcHTTP/1.1 200"))
    await server.stop()
  }

  @Test func aHeadRequestGetsTheLengthButNoBody() async throws {
    let server = try makeServer()
    let raw = try await rawExchange(
      "HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(raw.contains("Content-Length: 5\r\n"))
    #expect(raw.hasSuffix("\r\n\r\n"))
    await server.stop()
  }

  @Test func answersContinueBeforeABodyTheClientHoldsBack() async throws {
    let server = try makeServer()
    let port = server.port
    let (interim, final) = try await onThread {
      let connection = try LoopbackConnection.connect(toLoopbackPort: port)
      defer { connection.close() }
      connection.setReceiveTimeout(milliseconds: 5000)
      try connection.send(
        Array(
          "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8
        ))
      let interim = String(decoding: try connection.receive(upTo: 1024), as: UTF8.self)
      try connection.send(Array("ok".utf8))
      return (interim, String(decoding: try connection.receive(upTo: 1024), as: UTF8.self))
    }
    #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
    #expect(statusCode(of: final) == 200)
    #expect(final.hasSuffix("ok"))
    await server.stop()
  }
}
