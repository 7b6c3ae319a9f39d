import ComposableCore
import Foundation
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Session transport: cookies over real sockets")
struct SessionTransportTests {
  @Test func everyAnswerRotatesTheCookieAndTheNextRequestCarriesIt() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession()
    for _ in 0..<1000 {
      let answer = try await session.send(.get("/rotate"))
      #expect(answer.status == 200)
    }
    let issued = server.issued.current
    #expect(issued.session == 1001)
    #expect(issued.mismatches == 0, "a request carried a stale session cookie")
    #expect(session.cookie(named: "session")?.value == SessionServer.sessionValue(1001))
    #expect(
      server.recording.requests(to: "/rotate").allSatisfy {
        $0.headers.values(for: "Cookie").count == 1
      })
    await server.stop()
  }

  @Test func urlSessionsOwnCookieHandlingStaysOff() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession()
    _ = try await session.send(.get("/me"))
    let sharedCookies = HTTPCookieStorage.shared.cookies(for: server.baseURL) ?? []
    #expect(sharedCookies.isEmpty)
    let sent = try #require(server.recording.requests(to: "/me").first)
    #expect(sent.headers.values(for: "Cookie") == ["session=sess-secret-1; csrf=csrf-secret-1"])
    await server.stop()
  }

  @Test func aDeletionWithoutVersionRemovesTheCookie() async throws {
    let server = try SessionServer { router in
      router.get("/forget") { _ in
        var response = HTTPServerResponse.text("forgotten")
        response.headers.add("Set-Cookie", "csrf=; Path=/; max-age=-86400; HttpOnly")
        response.headers.add(
          "Set-Cookie", "theme=dark; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT")
        return response
      }
      router.get("/check") { request in .text(request.headers["Cookie"] ?? "none") }
    }
    let session = try await server.signedInSession()
    _ = try await session.send(.get("/forget"))
    let check = try await session.send(.get("/check"))
    #expect(check.text == "session=sess-secret-1; theme=dark")
    await server.stop()
  }

  @Test func redirectsAreAnsweredNotFollowed() async throws {
    let server = try SessionServer { router in
      router.get("/moved") { _ in
        var response = HTTPServerResponse.status(302)
        response.headers["Location"] = "/elsewhere"
        response.setCookie(SetCookie(name: "hop", value: "1"))
        return response
      }
    }
    let session = try await server.signedInSession()
    let answer = try await session.send(.get("/moved"))
    #expect(answer.status == 302)
    #expect(answer.headers["Location"] == "/elsewhere")
    #expect(session.cookie(named: "hop")?.value == "1")
    #expect(server.recording.requests(to: "/elsewhere").isEmpty)
    await server.stop()
  }

  @Test func requestsResolveBelowTheBaseURLAndRefuseOtherPaths() async throws {
    let server = try SessionServer { router in
      router.get("/repo/page") { request in .text(request.target) }
    }
    let session = HTTPSession(baseURL: server.baseURL.appendingPathComponent("repo"))
    let answer = try await session.send(
      .get("/page", query: [URLQueryItem(name: "q", value: "a b+c&d")], access: .public))
    #expect(answer.text == "/repo/page?q=a%20b%2Bc%26d")
    // Dot segments would leave the base path once resolved (`/repo/../admin` is `/admin`).
    let escaping = ["/../admin", "/%2e%2e/admin", "/%2E./admin", "/a/./b", "/a/..", "/."]
    for bad in ["page", "/a b", "/a?b", "/a#b"] + escaping {
      await #expect(throws: HTTPSessionError.invalidPath(bad)) {
        try await session.send(.get(bad, access: .public))
      }
    }
    await server.stop()
  }

  @Test func anEndpointDecodesSuccessAndNamesAnUnexpectedStatus() async throws {
    struct Me: Decodable, Sendable { let name: String }
    let server = try SessionServer()
    let session = try await server.signedInSession()
    let me = try await session.send(.json(.get("/me"), as: Me.self))
    #expect(me.name == "ada")
    await #expect {
      try await session.send(.json(.get("/missing"), as: Me.self))
    } throws: { error in
      (error as? HTTPStatusError)?.description == "GET /missing answered 404."
    }
    await server.stop()
  }
}
