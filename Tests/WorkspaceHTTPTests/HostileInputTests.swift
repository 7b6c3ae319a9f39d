import ComposableCore
import Foundation
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

/// What a broken or hostile server sends gets a clear answer, never a trap.
@Suite("Hostile input against the client")
struct HostileInputTests {
  @Test func malformedCookiesAreRefusedWithReasonsAndTheSessionGoesOn() async throws {
    let log = LineCollector()
    let server = try SessionServer { router in
      router.get("/cookies") { _ in
        var response = HTTPServerResponse.text("ok")
        for index in 0..<500 { response.headers.add("Set-Cookie", "flood\(index)=x") }
        for line in [
          "novalue", "=nameless", "ctl=a\u{7F}b", "big=" + String(repeating: "v", count: 5000),
          "foreign=1; Domain=example.com", "secure=1; Secure", "date=1; Expires=32 Foo 99999",
          "age=1; Max-Age=forever", "good=fine; Path=/",
        ] {
          response.headers.add("Set-Cookie", line)
        }
        return response
      }
    }
    let session = try await server.signedInSession(
      .init(logger: log.logger, maximumCookieCount: 100))
    let answer = try await session.send(.get("/cookies"))
    #expect(answer.status == 200)
    #expect(session.cookies.count == 100)
    #expect(session.cookie(named: "good")?.value == "fine")
    #expect(session.cookie(named: "date")?.expires == nil)
    #expect(session.cookie(named: "age")?.expires == nil)
    // URLSession joins Set-Cookie lines with commas: "novalue" and "=nameless" arrive glued
    // to their neighbour ("flood499=x, novalue, =nameless"), refused as a whole.
    let refused = log.lines.filter { $0.hasPrefix("cookie refused") }
    #expect(session.cookie(named: "flood499") == nil)
    #expect(
      refused == [
        "cookie refused: malformed Set-Cookie (a value outside the cookie grammar)",
        "cookie refused: malformed Set-Cookie (a control character)",
        "cookie refused: cookie larger than 4096 bytes",
        "cookie refused: Domain=example.com does not cover 127.0.0.1",
        "cookie refused: a Secure cookie set over http",
      ])
    #expect(try await session.send(.get("/me")).status == 200)
    await server.stop()
  }

  @Test func aHugeResponseHeaderIsAClearError() async throws {
    let server = try SessionServer { router in
      router.get("/huge") { _ in
        var response = HTTPServerResponse.text("ok")
        response.headers["X-Huge"] = String(repeating: "h", count: 1 << 20)
        return response
      }
    }
    let session = try await server.signedInSession()
    do {
      let answer = try await session.send(.get("/huge"))
      // A URL loading system that accepts it hands the header over whole.
      #expect(answer.headers["X-Huge"]?.count == 1 << 20)
    } catch let error as HTTPSessionError {
      #expect(error.description.hasPrefix("GET /huge failed: "))
    }
    #expect(session.status == .signedIn)
    await server.stop()
  }

  @Test func aHugeRequestHeaderIsRefusedByTheServerWith431() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession()
    let request = HTTPRequest(
      method: .get, path: "/me", headers: ["X-Huge": String(repeating: "h", count: 64 * 1024)])
    #expect(try await session.send(request).status == 431)
    #expect(try await session.send(.get("/me")).status == 200)
    await server.stop()
  }

  @Test func headerValuesCannotSmuggleLines() async throws {
    let server = try SessionServer { router in
      router.get("/headers") { request in .text(request.headers["X-Note"] ?? "none") }
    }
    let session = try await server.signedInSession()
    let request = HTTPRequest(
      method: .get, path: "/headers", headers: ["X-Note": "a\r\nX-Injected: yes"])
    #expect(try await session.send(request).text == "a X-Injected: yes")
    #expect(server.recording.requests(to: "/headers").first?.headers["X-Injected"] == nil)
    await server.stop()
  }
}
