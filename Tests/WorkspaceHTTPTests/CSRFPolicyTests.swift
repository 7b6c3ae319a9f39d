import Foundation
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@Suite("CSRF policy per server")
struct CSRFPolicyTests {
  @Test func theCookieIsEchoedAsAHeaderOnMutationsOnly() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession(.init(csrf: .echoCookie()))
    for method: HTTPMethod in [.get, .head, .post, .put, .patch, .delete] {
      let answer = try await session.send(HTTPRequest(method: method, path: "/echo"))
      #expect(answer.isSuccess, "\(method)")
    }
    let seen = server.recording.requests(to: "/echo").map {
      "\($0.method) \($0.headers["X-CSRF-Token"] ?? "-")"
    }
    #expect(
      seen == [
        "GET -", "HEAD -", "POST csrf-secret-1", "PUT csrf-secret-1", "PATCH csrf-secret-1",
        "DELETE csrf-secret-1",
      ])
    // The sign-in door, a public mutation before any csrf cookie existed, went without one.
    #expect(server.recording.requests(to: "/login").first?.headers["X-CSRF-Token"] == nil)
    await server.stop()
  }

  @Test func theEchoFollowsTheRotatedCookie() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession(.init(csrf: .echoCookie()))
    _ = try await session.send(.get("/rotate"))
    _ = try await session.send(.post("/echo", body: .none))
    #expect(server.recording.requests(to: "/echo").last?.headers["X-CSRF-Token"] == "csrf-secret-2")
    await server.stop()
  }

  @Test func aMutationWithoutTheCookieIsNotSent() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession(.init(csrf: .echoCookie("xsrf")))
    await #expect(throws: HTTPSessionError.csrfTokenUnavailable(cookie: "xsrf")) {
      try await session.send(.post("/echo", body: .none))
    }
    #expect(server.recording.requests(to: "/echo").isEmpty)
    _ = try await session.send(.get("/echo"))
    #expect(server.recording.requests(to: "/echo").count == 1)
    await server.stop()
  }

  @Test func aSameOriginRefererGoesWithMutationsOnly() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession(.init(csrf: .sameOriginReferer()))
    _ = try await session.send(.get("/echo"))
    _ = try await session.send(.post("/echo", body: .none))
    let referers = server.recording.requests(to: "/echo").map { $0.headers["Referer"] }
    #expect(referers == [nil, "http://127.0.0.1:\(server.recording.server.port)/"])
    await server.stop()
  }

  @Test func fossilFormsGetTheTokenFieldAndTheReferer() async throws {
    let server = try SessionServer { router in
      Self.fossilLogin(&router)
      router.post("/tktnew") { request in .text(request.formFields["csrf"] ?? "none") }
      router.post("/json/wiki/create") { request in .text(request.formFields["csrf"] ?? "none") }
    }
    let session = try await Self.signedInToFossil(server)
    let form = try await session.send(.post("/tktnew", body: .form(["title": "A bug"])))
    #expect(form.text == "0123456789")
    let json = try await session.send(.post("/json/wiki/create", body: try .json(["name": "W"])))
    #expect(json.text == "none")
    let posted = server.recording.requests.filter { $0.path != "/json/login" }
    #expect(posted.allSatisfy { $0.headers["Referer"] == "\(server.baseURL)/" })
    #expect(posted.first?.formFields["title"] == "A bug")
    await server.stop()
  }

  @Test func aProofTheRequestCarriesItselfIsKept() async throws {
    let server = try SessionServer { router in
      Self.fossilLogin(&router)
      router.post("/forume2") { request in .text(request.formFields["csrf"] ?? "none") }
    }
    let session = try await Self.signedInToFossil(server)
    var reply = HTTPRequest.post("/forume2", body: .form(["csrf": "scraped-token"]))
    reply.headers["Referer"] = "\(server.baseURL)/forumedit?fpid=abc&reply"
    let answer = try await session.send(reply)
    #expect(answer.text == "scraped-token")
    let posted = server.recording.requests.filter { $0.path == "/forume2" }
    #expect(posted.map { $0.headers["Referer"] } == ["\(server.baseURL)/forumedit?fpid=abc&reply"])
    await server.stop()
  }

  /// Fossil's login, faked: its cookie `fossil-<project code>`, whose first ten characters are
  /// its forms' `csrf` token.
  static func fossilLogin(_ router: inout HTTPRouter) {
    router.post("/json/login") { _ in
      var response = HTTPServerResponse.json(#"{"payload":{"authToken":"0123456789abcdef/x"}}"#)
      response.headers.add(
        "Set-Cookie",
        "fossil-0123456789abcdef=0123456789abcdef%2F2460000%2Fada; Path=/; max-age=31557600; "
          + "HttpOnly; Version=1")
      return response
    }
  }

  /// A session with the `.fossil` policy, signed in to `server`'s fake Fossil login.
  static func signedInToFossil(_ server: SessionServer) async throws -> HTTPSession {
    let session = HTTPSession(baseURL: server.baseURL, configuration: .init(csrf: .fossil))
    _ = try await session.send(
      .post("/json/login", body: try .json(["name": "ada"]), access: .public))
    session.beginSession()
    return session
  }
}
