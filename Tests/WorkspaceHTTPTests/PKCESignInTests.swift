import ComposableCore
import ComposableTesting
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("PKCE sign-in over a loopback redirect")
struct PKCESignInTests {
  /// The browser's part: a GET, answered with its status and body.
  private func visit(_ url: URL) async throws -> (status: Int, body: String) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    let (data, response) = try await URLSession(configuration: configuration).data(from: url)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  private func url(_ text: String) throws -> URL {
    try #require(URL(string: text))
  }

  @Test func forgedAndForeignReturnsAreDroppedAndTheRealOneIsAccepted() async throws {
    let listener = try LoopbackRedirectListener(state: "the-real-state")
    let base = listener.redirectURI.absoluteString
    let waiting = Task { try await listener.waitForReturn(timeout: .seconds(60)) }
    let forged = try await visit(url(base + "?code=evil&state=forged"))
    #expect(forged.status == 400)
    let stateless = try await visit(url(base + "?code=evil"))
    #expect(stateless.status == 400)
    let elsewhere = try await visit(
      url(
        base.replacingOccurrences(of: "/callback", with: "/other") + "?code=x&state=the-real-state")
    )
    #expect(elsewhere.status == 400)
    let real = try await visit(url(base + "?code=good&state=the-real-state"))
    #expect(real.status == 200)
    #expect(real.body.contains("Signed in"))
    let query = try await within(15, "the return") { try await waiting.value }
    #expect(query["code"] == "good")
    await #expect(throws: (any Error).self) {
      _ = try await visit(url(base + "?state=the-real-state"))
    }
  }

  @Test func aHostileRequestDoesNotEndTheWait() async throws {
    let listener = try LoopbackRedirectListener(state: "s")
    let waiting = Task { try await listener.waitForReturn(timeout: .seconds(60)) }
    var huge = URLRequest(url: listener.redirectURI)
    huge.setValue(String(repeating: "x", count: 64 * 1024), forHTTPHeaderField: "X-Huge")
    let (_, response) = try await URLSession(configuration: .ephemeral).data(for: huge)
    #expect((response as? HTTPURLResponse)?.statusCode == 431)
    _ = try await visit(url(listener.redirectURI.absoluteString + "?code=c&state=s"))
    #expect(try await within(15, "the return") { try await waiting.value }["code"] == "c")
  }

  @Test func noReturnTimesOutOnTheClockAndCloses() async throws {
    let clock = TestClock()
    let listener = try LoopbackRedirectListener(state: "s")
    let waiting = Task {
      try await withDependencies {
        $0.clock = clock
      } operation: {
        try await listener.waitForReturn(timeout: .seconds(300))
      }
    }
    try await within(15, "the wait to start") {
      while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(2)) }
    }
    await clock.advance(by: .seconds(300))
    await #expect(throws: PKCESignInError.timedOut(after: .seconds(300))) {
      try await within(15, "the timeout") { try await waiting.value }
    }
    #expect(
      "\(PKCESignInError.timedOut(after: .seconds(300)))"
        == "The sign-in did not return within 300 s.")
    await #expect(throws: (any Error).self) {
      _ = try await visit(url(listener.redirectURI.absoluteString + "?code=c&state=s"))
    }
  }

  @Test func aDeniedReturnIsAClearError() async throws {
    let listener = try LoopbackRedirectListener(state: "s")
    let waiting = Task { try await listener.waitForReturn(timeout: .seconds(60)) }
    _ = try await visit(url(listener.redirectURI.absoluteString + "?error=access_denied&state=s"))
    await #expect(throws: PKCESignInError.denied(error: "access_denied")) {
      try await within(15, "the return") { try await waiting.value }
    }
  }

  @Test func cancellingTheWaitClosesTheListener() async throws {
    let listener = try LoopbackRedirectListener(state: "s")
    let waiting = Task { try await listener.waitForReturn(timeout: .seconds(60)) }
    waiting.cancel()
    await #expect(throws: CancellationError.self) {
      try await within(15, "the cancellation") { try await waiting.value }
    }
    await #expect(throws: (any Error).self) {
      _ = try await visit(url(listener.redirectURI.absoluteString + "?code=c&state=s"))
    }
  }

  @Test func aFullSignInRoundTripOverLoopback() async throws {
    let authority = try AuthorizationServer()
    let session = HTTPSession(baseURL: authority.server.baseURL)
    let signIn = try PKCESignIn()
    let authorize = signIn.authorizationURL(
      authority.server.baseURL.appendingPathComponent("authorize"), clientID: "demo-app")
    async let code = signIn.waitForCode(timeout: .seconds(60))
    let page = try await visit(authorize)  // the browser follows the 302 to the listener
    #expect(page.status == 200)
    try await signIn.exchange(try await code, through: session) {
      .authorizationCodeExchange($0, path: "/token", clientID: "demo-app")
    }
    #expect(session.status == .signedIn)
    #expect(try await session.send(.get("/whoami")).text == "ada")
    await authority.server.recording.stop()
  }

  @Test func anExchangeWithTheWrongVerifierIsRefused() async throws {
    let authority = try AuthorizationServer()
    let session = HTTPSession(baseURL: authority.server.baseURL)
    let signIn = try PKCESignIn()
    async let code = signIn.waitForCode(timeout: .seconds(60))
    _ = try await visit(
      signIn.authorizationURL(authority.server.baseURL.appendingPathComponent("authorize")))
    let stolen = try await code
    await #expect(throws: PKCESignInError.exchangeRefused(status: 400)) {
      try await signIn.exchange(stolen, through: session) { exchange in
        .authorizationCodeExchange(
          PKCEExchange(
            code: exchange.code, verifier: PKCE().verifier, redirectURI: exchange.redirectURI),
          path: "/token")
      }
    }
    #expect(session.status == .signedOut(nil))
    await authority.server.recording.stop()
  }
}

/// An OAuth authorization server with PKCE: `/authorize` grants ada a code bound to the
/// challenge, `/token` redeems it for a session cookie if the verifier matches.
final class AuthorizationServer: Sendable {
  let server: SessionServer

  init() throws {
    let authorizations = PKCEAuthorizations<String>()
    server = try SessionServer { router in
      router.get("/authorize") { request in authorizations.authorize(request, granting: "ada") }
      router.post("/token") { request in
        guard authorizations.redeem(request) == "ada" else {
          return .json(#"{"error":"invalid_grant"}"#, status: 400)
        }
        var response = HTTPServerResponse.json(#"{"token_type":"cookie"}"#)
        response.setCookie(SetCookie(name: "session", value: "pkce-session-secret", httpOnly: true))
        return response
      }
      router.get("/whoami") { request in
        request.cookies["session"] == "pkce-session-secret" ? .text("ada") : .status(401)
      }
    }
  }
}
