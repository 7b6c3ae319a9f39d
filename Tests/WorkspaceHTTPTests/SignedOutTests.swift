import ComposableCore
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@Suite("Signed out is a state")
struct SignedOutTests {
  @Test func a401MidSessionSignsOutOnceEmptiesTheJarAndDoesNotRetry() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession()
    let updates = session.statusUpdates()
    #expect(try await next(updates, "the first status") == .signedIn)
    _ = try await session.send(.get("/me"))
    #expect(!session.cookies.isEmpty)

    async let first = outcome { try await session.send(.get("/expired")) }
    async let second = outcome { try await session.send(.get("/expired")) }
    for result in await [first, second] {
      #expect(throws: HTTPSessionError.signedOut) { try result.get() }
    }
    #expect(try await next(updates, "the end") == .signedOut(.unauthorized))
    #expect(session.status == .signedOut(.unauthorized))
    #expect(session.cookies.isEmpty)
    // Each call reaches the server at most once (no retry). The second one reaches it only if
    // it was sent before the first one's 401 came back; after it, it fails without a request.
    let expired = server.recording.requests(to: "/expired").count
    #expect((1...2).contains(expired), "\(expired) requests for two calls: a call was retried")

    await #expect(throws: HTTPSessionError.signedOut) { try await session.send(.get("/me")) }
    #expect(server.recording.requests(to: "/me").count == 1, "a signed-out call reached the server")

    // The two 401s were told as one end: the next status is the next sign-in.
    session.beginSession()
    #expect(try await next(updates, "the sign-in") == .signedIn)
    session.endSession()
    session.endSession()
    session.beginSession()
    #expect(try await next(updates, "the sign-out") == .signedOut(.signedOut))
    #expect(try await next(updates, "the sign-in") == .signedIn, "an end was told twice")
    await server.stop()
  }

  @Test func aServerSpecificSignalEndsTheSession() async throws {
    let server = try SessionServer { router in
      router.get("/json/whoami") { _ in .json(#"{"payload":{"name":"nobody"}}"#) }
    }
    let detector = SessionEndDetector { response in
      response.text.contains(#""name":"nobody""#) ? .serverSignal("whoami: nobody") : nil
    }
    let session = try await server.signedInSession(.init(sessionEnd: detector))
    await #expect(throws: HTTPSessionError.signedOut) {
      try await session.send(.get("/json/whoami"))
    }
    #expect(session.status == .signedOut(.serverSignal("whoami: nobody")))
    #expect(session.cookies.isEmpty)
    await server.stop()
  }

  @Test func anAnswerInFlightWhenTheSessionEndsCannotPutCookiesBack() async throws {
    let release = LockIsolated<CheckedContinuation<Void, Never>?>(nil)
    let arrived = Signal()
    let server = try SessionServer { router in
      router.get("/late") { request in
        await withCheckedContinuation { continuation in
          release.setValue(continuation)
          arrived.fire()
        }
        return SessionServer.rotated(.text("late"), issued: LockIsolated(.init()), request: nil)
      }
    }
    let session = try await server.signedInSession()
    let late = Task { try await session.send(.get("/late")) }
    try await arrived.wait("the late request to arrive")
    session.endSession()
    release.withValue { $0?.resume() }
    await #expect(throws: HTTPSessionError.signedOut) { try await late.value }
    #expect(session.cookies.isEmpty)
    await server.stop()
  }

  @Test func publicCallsWorkSignedOutAndSessionCallsDoNot() async throws {
    let server = try SessionServer()
    let session = HTTPSession(baseURL: server.baseURL)
    #expect(session.status == .signedOut(nil))
    await #expect(throws: HTTPSessionError.signedOut) { try await session.send(.get("/me")) }
    #expect(server.recording.requests.isEmpty)
    let expired = try await session.send(.get("/expired", access: .public))
    #expect(expired.status == 401)
    #expect(session.status == .signedOut(nil))
    await server.stop()
  }

  @Test func signingOutTellsTheServerWithTheCookiesThenEmptiesTheJar() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession()
    try await session.signOut(notifying: .post("/logout", body: .none))
    let logout = try #require(server.recording.requests(to: "/logout").first)
    #expect(logout.cookies["session"] == SessionServer.sessionValue(1))
    #expect(session.cookies.isEmpty)
    #expect(session.status == .signedOut(.signedOut))
  }

  @Test func signingOutEndsTheSessionEvenWhenTheServerIsGone() async throws {
    let server = try SessionServer()
    let session = try await server.signedInSession()
    await server.stop()
    await #expect(throws: HTTPSessionError.self) {
      try await session.signOut(notifying: .post("/logout", body: .none))
    }
    #expect(session.cookies.isEmpty)
    #expect(session.status == .signedOut(.signedOut))
  }
}
