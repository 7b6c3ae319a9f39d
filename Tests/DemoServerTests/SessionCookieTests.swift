import DemoHTTPProtocol
import Foundation
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// Cookie sessions: rotated on every answer, a mutation proven by the csrf echo, 401 once the
/// session is gone.
@Suite("Demo server: cookie sessions")
struct SessionCookieTests {
  @Test("Every session call rotates both cookies; the next request carries the new ones")
  func rotation() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, me) = try await server.signIn()
    #expect(me.session.hasPrefix("s"))
    var seen: Set<String> = []
    for _ in 0..<5 {
      let before = try #require(session.cookie(named: DemoAPI.sessionCookie)?.value)
      seen.insert(before)
      let answer = try await session.send(.get(DemoAPI.me))
      #expect(answer.status == 200)
      #expect(try answer.decode(DemoAPI.Me.self).username == "ada")
      let after = try #require(session.cookie(named: DemoAPI.sessionCookie)?.value)
      #expect(after != before, "the answer rotated the session cookie")
    }
    #expect(seen.count == 5)
    let sent = server.requests.filter { $0.path == DemoAPI.me }.map {
      $0.cookies[DemoAPI.sessionCookie]
    }
    #expect(Set(sent.compactMap { $0 }).count == 5, "each request carried the newest cookie")
  }

  @Test("An old cookie value is honoured within the grace, refused (401) after it")
  func grace() async throws {
    let server = try TestServer(configuration: .init(cookieGrace: 2))
    defer { Task { await server.stop() } }
    let (session, _) = try await server.signIn()
    let first = try #require(session.cookie(named: DemoAPI.sessionCookie)?.value)
    _ = try await session.send(.get(DemoAPI.me))
    _ = try await session.send(.get(DemoAPI.me))
    // Honoured two rotations later (this answer rotates once more, out of the grace).
    #expect(try await server.me(withCookie: first).status == 200)
    _ = try await session.send(.get(DemoAPI.me))
    let refused = try await server.me(withCookie: first)
    #expect(refused.status == 401)
    #expect(refused.problem?.code == .signedOut)
    #expect(try await session.send(.get(DemoAPI.me)).status == 200, "the newest cookie still works")
  }

  @Test("A mutation without the csrf echo is refused (403); with it, it goes through")
  func csrf() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, _) = try await server.signIn()
    // A session whose policy sends no proof, carrying the same cookies.
    let bare = HTTPSession(baseURL: server.baseURL)
    let cookies = session.cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    var forged = HTTPRequest(method: .post, path: DemoAPI.admissions, access: .public)
    forged.headers["Cookie"] = cookies
    let refused = try await bare.send(forged)
    #expect(refused.status == 403)
    #expect(refused.problem?.code == .csrf)
    forged.headers[DemoAPI.csrfHeader] = "guessed"
    #expect(try await bare.send(forged).status == 403, "a header that is not the cookie is refused")
    let admitted = try await session.send(HTTPRequest(method: .post, path: DemoAPI.admissions))
    #expect(admitted.status == 201)
    #expect(server.requests.last?.headers[DemoAPI.csrfHeader] != nil)
  }

  @Test("After sign-out every session call answers 401 and the cookies are deleted")
  func signOut() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, _) = try await server.signIn()
    let cookie = try #require(session.cookie(named: DemoAPI.sessionCookie)?.value)
    let logout = try await session.send(HTTPRequest(method: .post, path: DemoAPI.logout))
    #expect(logout.status == 204)
    #expect(logout.setCookie(DemoAPI.sessionCookie)?.contains("Max-Age=0") == true)
    #expect(
      session.cookie(named: DemoAPI.sessionCookie) == nil, "the deletion emptied the jar's cookie")
    for path in [DemoAPI.me, DemoAPI.events] {
      let answer = try await server.me(withCookie: cookie, path: path)
      #expect(answer.status == 401, "\(path)")
    }
    // The system's session behind it ended too (its first session's token is `session-1`).
    await #expect(throws: DemoError.sessionExpired) {
      try await server.system.account(token: "session-1")
    }
    // Signing out again (no session) is harmless.
    let again = HTTPSession(baseURL: server.baseURL)
    #expect(
      try await again.send(HTTPRequest(method: .post, path: DemoAPI.logout, access: .public)).status
        == 204)
  }

  @Test("A session call without any cookie is 401; the catalogue is public")
  func publicReads() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let anonymous = HTTPSession(baseURL: server.baseURL)
    #expect(try await anonymous.send(.get(DemoAPI.me, access: .public)).status == 401)
    let branches = try await anonymous.send(.get(DemoAPI.branches, access: .public))
    #expect(try branches.decode([DemoAPI.Branch].self).map(\.name) == ["festival", "published"])
    let head = try await anonymous.send(.get(DemoAPI.branch("published"), access: .public))
    #expect(try head.decode(DemoAPI.Revision.self).events.count == 3)
    var grantRead = HTTPRequest.get(DemoAPI.branch("published"), access: .public)
    grantRead.headers[DemoAPI.grantHeader] = "grant-1"
    #expect(
      try await anonymous.send(grantRead).status == 401,
      "a read naming a grant is a session call")
    #expect(try await anonymous.send(.get(DemoAPI.branch("nope"), access: .public)).status == 404)
  }
}
