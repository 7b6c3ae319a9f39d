import ComposableCore
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@Suite("Session transport: failures are clear and bounded")
struct TransportFailureTests {
  private static func server() throws -> SessionServer {
    try SessionServer { router in
      router.get("/never") { _ in
        try? await Task.sleep(for: .seconds(3600))
        return .text("too late")
      }
      router.get("/lost") { _ in .closeWithoutAnswer }
      router.get("/reset") { _ in .resetConnection }
    }
  }

  @Test func aServerThatNeverAnswersIsBoundedByTheTimeout() async throws {
    let server = try Self.server()
    let session = try await server.signedInSession(.init(timeout: .seconds(1)))
    await #expect {
      try await within(15, "the timeout") { try await session.send(.get("/never")) }
    } throws: { error in
      guard let error = error as? HTTPSessionError, error.isTransient else { return false }
      return error == .timedOut(request: "GET /never", after: .seconds(1))
        && error.description == "GET /never got no answer within 1 s."
    }
    #expect(session.status == .signedIn, "a timeout is not a sign-out")
    await server.stop()
  }

  /// FoundationNetworking truncates timeouts to whole seconds (0.3 s would fire at once): the
  /// session rounds a sub-second timeout up, and says so in the error.
  @Test func aPerRequestTimeoutOverridesTheSessionsRoundedUpToWholeSeconds() async throws {
    let server = try Self.server()
    let session = try await server.signedInSession()
    let request = HTTPRequest(method: .get, path: "/never", timeout: .milliseconds(300))
    #if canImport(FoundationNetworking)
      let effective = Duration.seconds(1)
    #else
      let effective = Duration.milliseconds(300)
    #endif
    await #expect(throws: HTTPSessionError.timedOut(request: "GET /never", after: effective)) {
      try await within(15, "the timeout") { try await session.send(request) }
    }
    await server.stop()
  }

  @Test(arguments: [
    ("/lost", "GET /lost failed: the server closed without an answer."),
    ("/reset", "GET /reset failed: the connection was lost."),
  ])
  func aBrokenConnectionIsAClearTransientError(path: String, message: String) async throws {
    let server = try Self.server()
    let session = try await server.signedInSession()
    await #expect {
      try await session.send(.get(path))
    } throws: { error in
      (error as? HTTPSessionError)?.isTransient == true && "\(error)" == message
    }
    await server.stop()
  }

  @Test func aServerThatIsGoneCannotBeConnectedTo() async throws {
    let server = try Self.server()
    let session = try await server.signedInSession()
    await server.stop()
    await #expect(
      throws: HTTPSessionError.connectionFailed(
        request: "GET /me", reason: "could not connect to the server")
    ) {
      try await session.send(.get("/me"))
    }
  }

  @Test func cancellingARequestIsCancellationAndTheServerSeesTheDisconnect() async throws {
    let arrived = Signal()
    let abandoned = Signal()
    let server = try SessionServer { router in
      router.get("/wait") { _ in
        arrived.fire()
        do { try await Task.sleep(for: .seconds(3600)) } catch { abandoned.fire() }
        return .text("too late")
      }
    }
    let session = try await server.signedInSession()
    let call = Task { try await session.send(.get("/wait")) }
    try await arrived.wait("the request to arrive")
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }
    try await abandoned.wait("the server to see the client leave")
    await server.stop()
  }
}
