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

/// Runs a whole session — PKCE sign-in, a password login, rotating cookies, CSRF echo, an
/// Authorization header, a token in a query, an intent retried after a lost answer, a
/// refused intent, an event stream, a timeout, a 401 — collecting every line the layer logged,
/// every error message and the descriptions of every value that holds a secret; then looks
/// for each secret in all of it. The server checks that the secrets did travel.
@Suite("No secret in any log or error message")
struct SecretsNeverLeakTests {
  static let password = "lovelace-pw"
  static let bearer = "Bearer bearer-secret-token-7f3a"
  static let queryToken = "query-secret-token-91c2"

  @Test func noCookieValueTokenOrPasswordReachesALogOrAnErrorMessage() async throws {
    let log = LineCollector()
    let texts = LineCollector()
    let seen = LockIsolated<[String]>([])
    let lostOnce = LockIsolated(true)
    let authority = try AuthorizationServer()
    let server = try SessionServer { router in
      router.get("/secure") { request in
        seen.withValue {
          $0 += [request.headers["Authorization"] ?? "", request.queryValue("token") ?? ""]
        }
        return .text("ok")
      }
      router.post("/records") { request in
        seen.withValue { $0.append(request.headers["X-CSRF-Token"] ?? "") }
        let first = lostOnce.withValue { first -> Bool in
          defer { first = false }
          return first
        }
        if first { return .closeWithoutAnswer }
        return .json(#"{"id":"R1"}"#, status: 201)
      }
      router.post("/refused") { _ in .json(#"{"error":"no"}"#, status: 403) }
      router.get("/live") { _ in
        var response = HTTPServerResponse.eventStream { writer in
          try? writer.send(ServerSentEvent(data: "merged", id: "1"))
        }
        response.setCookie(SetCookie(name: "stream", value: "stream-cookie-secret"))
        return response
      }
      router.get("/slow") { _ in
        try? await Task.sleep(for: .seconds(60))
        return .status(200)
      }
    }
    let configuration = HTTPSessionConfiguration(
      csrf: .echoCookie(), headers: ["Authorization": Self.bearer],
      logger: log.logger)

    // PKCE sign-in against the authorization server, through a session with the same logger.
    let pkceSession = HTTPSession(baseURL: authority.server.baseURL, configuration: configuration)
    let signIn = try PKCESignIn()
    texts.append("\(signIn)")
    async let code = signIn.waitForCode(timeout: .seconds(30))
    _ = try await URLSession(configuration: .ephemeral).data(
      from: signIn.authorizationURL(authority.server.baseURL.appendingPathComponent("authorize")))
    let returnedCode = try await code
    let exchange = PKCEExchange(
      code: returnedCode, verifier: signIn.pkce.verifier, redirectURI: signIn.redirectURI)
    texts.append("\(exchange)")
    try await signIn.exchange(returnedCode, through: pkceSession) {
      .authorizationCodeExchange($0, path: "/token")
    }
    texts.append(pkceSession.cookies.map { "\($0)" }.joined())

    // A password login, then calls that rotate cookies and echo the csrf cookie.
    let session = try await server.signedInSession(configuration)
    for _ in 0..<3 {
      let answer = try await session.send(
        .get("/secure", query: [URLQueryItem(name: "token", value: Self.queryToken)]))
      texts.append("\(answer)")
    }
    let intent = IdempotentIntent(
      key: IdempotencyKey(rawValue: "k1"), path: "/records",
      body: .form(["password": Self.password]))
    let sending = SendingIntent(intent, through: session, policy: RetryPolicy())
    await sending.clock.advance(by: try await sending.nextWait("the retry"))
    texts.append("\(try await sending.answer("the intent"))")
    texts.append(sending.progress.reports.map { "\($0)" }.joined(separator: "\n"))
    await collect(texts) { try await session.send(IdempotentIntent(path: "/refused", body: .none)) }
    await collect(texts) {
      try await session.send(HTTPRequest(method: .get, path: "/slow", timeout: .seconds(1)))
    }
    for try await event in session.events(.get("/live")) {
      texts.append("\(event)")
      break
    }
    await collect(texts) {
      for try await event in session.events(
        .get("/me", query: [URLQueryItem(name: "token", value: Self.queryToken)]))
      {
        return event
      }
      return ServerSentEvent(data: "none")
    }
    texts.append(session.cookies.map { "\($0)" }.joined(separator: "\n"))
    await collect(texts) { try await session.send(.get("/expired")) }
    await collect(texts) { try await session.send(.get("/me")) }

    // The failures happened (their messages are part of what is searched)…
    for failure in [
      "was refused with 403", "got no answer within 1 s", "not an event stream",
      "The session is signed out",
    ] {
      #expect(texts.lines.contains { $0.contains(failure) }, "no error said \"\(failure)\"")
    }
    #expect(!texts.lines.contains { $0.hasPrefix("unexpected success") })
    // …the secrets did travel…
    let cookieValues = (1...6).map { SessionServer.sessionValue($0) } + ["pkce-session-secret"]
    #expect(seen.current.contains(Self.bearer))
    #expect(seen.current.contains(Self.queryToken))
    #expect(seen.current.contains("csrf-secret-1"))
    // …and none of them shows anywhere.
    let secrets =
      cookieValues + (1...6).map { "csrf-secret-\($0)" }
      + [
        Self.password, Self.bearer, "bearer-secret-token-7f3a", Self.queryToken,
        "stream-cookie-secret", signIn.pkce.verifier, signIn.pkce.challenge, signIn.state,
        returnedCode,
      ]
    let everything = log.lines + texts.lines
    #expect(log.lines.count > 20, "the scenario logged too little to prove anything")
    for (index, secret) in secrets.enumerated() {
      // The message names the secret by its place in the list, so a failure prints no secret.
      let leaks = everything.filter { $0.contains(secret) }.count
      #expect(leaks == 0, "secret #\(index) appears in \(leaks) logged or error line(s)")
    }
    await server.stop()
    await authority.server.stop()
  }

  /// Runs `operation`, which should fail, and keeps its error's messages.
  private func collect(
    _ texts: LineCollector, _ operation: () async throws -> some Sendable
  ) async {
    do {
      texts.append("unexpected success: \(try await operation())")
    } catch {
      texts.append("\(error)")
      texts.append(String(reflecting: error))
      texts.append(error.localizedDescription)
    }
  }
}
