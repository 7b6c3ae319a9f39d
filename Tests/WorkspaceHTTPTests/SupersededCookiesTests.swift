import ComposableCore
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

/// A call whose cookies another call's answer replaced while it was in flight: a refusal of the
/// old cookies is not the end of the session (the call is sent once more, with the newest); a
/// refusal of the newest is.
@Suite("Cookies superseded in flight")
struct SupersededCookiesTests {
  /// A server whose `/held` holds its first request until `release` fires and then refuses it
  /// (401), as a server refuses a cookie it stopped honouring; later requests get `later`.
  private static func server(later: Int, arrived: Signal, release: Signal) throws -> SessionServer {
    let requests = LockIsolated(0)
    return try SessionServer { router in
      router.get("/held") { _ in
        let number = requests.withValue { count -> Int in
          count += 1
          return count
        }
        guard number == 1 else { return .status(later) }
        arrived.fire()
        try? await release.wait("the test to release the held call")
        return .status(401)
      }
    }
  }

  /// Sends `/held`; while the server holds it, another call's answer rotates the cookies.
  private static func sendWhileCookiesRotate(
    _ session: HTTPSession, arrived: Signal, release: Signal
  ) async throws -> Result<HTTPResponse, any Error> {
    let held = Task { await outcome { try await session.send(.get("/held")) } }
    try await arrived.wait("the held call to reach the server")
    #expect(try await session.send(.get("/rotate")).status == 200)
    release.fire()
    return try await within(15, "the held call's outcome") { await held.value }
  }

  @Test("A refusal of cookies superseded in flight is sent again with the newest: still signed in")
  func sentAgainWithTheNewest() async throws {
    let (arrived, release) = (Signal(), Signal())
    let server = try Self.server(later: 200, arrived: arrived, release: release)
    let session = try await server.signedInSession()
    let result = try await Self.sendWhileCookiesRotate(
      session, arrived: arrived, release: release)
    #expect(try result.get().status == 200)
    #expect(session.status == .signedIn)
    let sent = server.recording.requests(to: "/held").map { $0.cookies["session"] }
    #expect(sent.count == 2, "sent \(sent.count) times")
    #expect(sent.first != sent.last, "the second try carried the same cookie")
    #expect(sent.last == session.cookie(named: "session")?.value, "not the newest cookie")
    await server.stop()
  }

  @Test("A refusal of the newest cookies ends the session: one more try, never a loop")
  func aRefusalOfTheNewestEndsIt() async throws {
    let (arrived, release) = (Signal(), Signal())
    let server = try Self.server(later: 401, arrived: arrived, release: release)
    let session = try await server.signedInSession()
    let result = try await Self.sendWhileCookiesRotate(
      session, arrived: arrived, release: release)
    #expect(throws: HTTPSessionError.signedOut) { try result.get() }
    #expect(session.status == .signedOut(.unauthorized))
    #expect(server.recording.requests(to: "/held").count == 2)
    await server.stop()
  }

  @Test("A refusal of the cookies the jar still holds ends the session at once")
  func aRefusalWithoutRotationEndsIt() async throws {
    let (arrived, release) = (Signal(), Signal())
    let server = try Self.server(later: 200, arrived: arrived, release: release)
    let session = try await server.signedInSession()
    let held = Task { await outcome { try await session.send(.get("/held")) } }
    try await arrived.wait("the held call to reach the server")
    release.fire()
    let result = try await within(15, "the held call's outcome") { await held.value }
    #expect(throws: HTTPSessionError.signedOut) { try result.get() }
    #expect(server.recording.requests(to: "/held").count == 1, "a refusal was retried")
    await server.stop()
  }
}
