import ComposableCore
import DemoHTTPProtocol
import DemoServer
import Foundation
import HTTPTestSupport
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// Cookie sessions: rotated as `CookieRotation` says, a superseded value honoured for its
/// grace (so concurrent calls never sign a person out), a mutation proven by the csrf echo,
/// 401 once the session is gone.
@Suite("Demo server: cookie sessions")
struct SessionCookieTests {
  /// A clock the test moves by hand, and a rotation measured on it.
  final class ManualClock: Sendable {
    private let time = LockIsolated(Date(timeIntervalSince1970: 2_000_000_000))
    func advance(_ seconds: TimeInterval) { time.withValue { $0 += seconds } }
    func rotation(interval: Duration, grace: Duration) -> CookieRotation {
      CookieRotation(interval: interval, grace: grace) { [time] in time.current }
    }
  }

  @Test("With a zero interval every answer rotates both cookies; the next request carries them")
  func rotation() async throws {
    let clock = ManualClock()
    let server = try TestServer(
      configuration: .init(cookieRotation: clock.rotation(interval: .zero, grace: .seconds(5))))
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

  @Test("Answers rotate the cookies at most once per interval")
  func interval() async throws {
    let clock = ManualClock()
    let server = try TestServer(
      configuration: .init(
        cookieRotation: clock.rotation(interval: .seconds(60), grace: .seconds(120))))
    defer { Task { await server.stop() } }
    let (session, _) = try await server.signIn()
    let first = try #require(session.cookie(named: DemoAPI.sessionCookie)?.value)
    clock.advance(59)
    let early = try await session.send(.get(DemoAPI.me))
    #expect(early.setCookie(DemoAPI.sessionCookie) == nil, "rotated before the interval passed")
    #expect(session.cookie(named: DemoAPI.sessionCookie)?.value == first)
    clock.advance(1)
    let due = try await session.send(.get(DemoAPI.me))
    #expect(due.setCookie(DemoAPI.sessionCookie) != nil, "not rotated once the interval passed")
    #expect(session.cookie(named: DemoAPI.sessionCookie)?.value != first)
  }

  @Test("A superseded value is honoured for the grace and refused (401) after it")
  func grace() async throws {
    let clock = ManualClock()
    let server = try TestServer(
      configuration: .init(cookieRotation: clock.rotation(interval: .zero, grace: .seconds(30))))
    defer { Task { await server.stop() } }
    let (session, _) = try await server.signIn()
    let first = try #require(session.cookie(named: DemoAPI.sessionCookie)?.value)
    _ = try await session.send(.get(DemoAPI.me))  // supersedes `first` now
    clock.advance(30)
    // However many rotations happened since: each of these answers rotates once more.
    for _ in 0..<12 {
      #expect(try await server.me(withCookie: first).status == 200, "refused within the grace")
    }
    clock.advance(1)
    let refused = try await server.me(withCookie: first)
    #expect(refused.status == 401)
    #expect(refused.problem?.code == .signedOut)
    #expect(try await session.send(.get(DemoAPI.me)).status == 200, "the session's cookie works")
    #expect(session.status == .signedIn)
  }

  @Test("64 calls at once, reads and mutations, with an event stream open: nobody is signed out")
  func concurrentCalls() async throws {
    // Every answer rotates (the worst case for the client); the default grace.
    let server = try TestServer(configuration: .init(cookieRotation: .init(interval: .zero)))
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    let states = Reports<EventStreamState>()
    let stream = session.events(
      .get(DemoAPI.events), options: EventStreamOptions(onStateChange: states.report))
    let announced = Task { try await next(stream, "the announcement after the calls") }
    _ = try await states.next("the stream to open") { $0 == .open ? () : nil }

    let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
      for call in 0..<64 {
        group.addTask {
          switch call % 4 {
          case 0:
            let admission = HTTPRequest(method: .post, path: DemoAPI.admissions)
            return ("admission", try await session.send(admission).status)
          case 1: return ("grant", try await session.send(.get(DemoAPI.grant(grant.id))).status)
          default: return ("me", try await session.send(.get(DemoAPI.me)).status)
          }
        }
      }
      return try await group.reduce(into: [String: [Int]]()) { $0[$1.0, default: []].append($1.1) }
    }
    #expect(statuses["admission"] == Array(repeating: 201, count: 16))
    #expect(statuses["grant"] == Array(repeating: 200, count: 16))
    #expect(statuses["me"] == Array(repeating: 200, count: 32))
    #expect(session.status == .signedIn)

    // The stream is still open and the session can still write: an announcement arrives.
    _ = try await propose(session, grant.id, "after-the-burst")
    let event = try #require(try await announced.value)
    #expect(event.data.contains("after-the-burst"))
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
