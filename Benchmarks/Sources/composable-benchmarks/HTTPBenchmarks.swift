import ComposableCore
import Foundation
import LoopbackHTTPServer
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `http` group's figures.
struct HTTPSummary {
  let request: Summary
  let requestPlain: Summary
  let eventsPerSecond: Summary
  let signIn: Summary
}

/// `http_request_us`, `http_request_plain_us`, `sse_events_per_s` and `pkce_signin_ms`, all
/// against one `LoopbackHTTPServer` in this process (127.0.0.1, a kernel-chosen port).
///
/// - Requests: `GET /rotate`, answered with a small JSON body and a new `session` cookie each
///   time; a repetition is `requests` sequential requests on one keep-alive connection. The
///   layer (`HTTPSession.send`, a signed-in session: its jar sends the last cookie and takes
///   the new one; a CSRF policy, which a GET skips) and plain `URLSession.data(for:)` (an
///   ephemeral session with cookies off, the same request without a cookie) alternate.
///   Checks: every answer is 200 with the body; the server saw the last cookie on every
///   layer request; the jar holds the newest.
/// - Events: `GET /events` streams `events` small events (`id: n`, `data: event n`) as fast as
///   the server writes them; a repetition runs from the request to the last event in hand.
///   Checks: every event arrived, in order, once.
/// - Sign-in: one whole PKCE sign-in: open the loopback listener, the "browser" (a plain
///   URLSession following redirects) loads `/authorize`, which redirects to the listener with
///   a code bound to the S256 challenge, then the code exchange with the verifier through a
///   fresh `HTTPSession` (its cookie lands in the jar), then `GET /whoami` signed in.
@MainActor
func benchmarkHTTP(requests: Int, events: Int, repetitions: Int) async throws -> HTTPSummary {
  let fixture = try HTTPBenchmarkServer(events: events)
  defer { Task { await fixture.server.stop() } }
  let session = HTTPSession(
    baseURL: fixture.server.baseURL, configuration: .init(csrf: .echoCookie()))
  let login = try await session.send(.post("/login", body: .none, access: .public))
  try check(login.status == 204, "login answered \(login)")
  session.beginSession()
  let plain = URLSession(configuration: plainConfiguration())
  let url = fixture.server.baseURL.appendingPathComponent("rotate")

  let rounds = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        let elapsed = try await time {
          for _ in 0..<requests {
            let answer = try await session.send(.get("/rotate"))
            try check(answer.status == 200 && answer.body == fixture.body, "layer: \(answer)")
          }
        }
        return elapsed.nanoseconds / 1000 / Double(requests)
      },
      {
        let elapsed = try await time {
          for _ in 0..<requests {
            let (body, response) = try await plain.data(for: URLRequest(url: url))
            try check(
              (response as? HTTPURLResponse)?.statusCode == 200 && body == fixture.body,
              "plain URLSession: \(response)")
          }
        }
        return elapsed.nanoseconds / 1000 / Double(requests)
      },
    ])
  let issued = fixture.issued.withValue { $0 }
  try check(issued.mismatches == 0, "layer requests carried a stale cookie \(issued.mismatches)×")
  try check(
    session.cookie(named: "session")?.value == "s\(issued.layerCount)",
    "the jar does not hold the newest session cookie")

  let streamed = try await measure(repetitions: repetitions) {
    var received = 0
    let elapsed = try await time {
      for try await event in session.events(.get("/events")) {
        received += 1
        try check(event.id == "\(received)", "event \(received) arrived as \(event.id ?? "nil")")
        if received == events { break }
      }
    }
    try check(received == events, "\(received) of \(events) events arrived")
    return Double(events) / elapsed.seconds
  }

  let signIn = try await measure(repetitions: 2 * repetitions + 1) {
    try await time { try await fixture.signInOnce() }.milliseconds
  }
  return HTTPSummary(
    request: rounds[0], requestPlain: rounds[1], eventsPerSecond: streamed, signIn: signIn)
}

/// A session configuration for the hand-written floors: no cookie handling, no cache.
func plainConfiguration() -> URLSessionConfiguration {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.httpShouldSetCookies = false
  configuration.httpCookieStorage = nil
  configuration.urlCache = nil
  return configuration
}

/// The loopback server the group measures against.
final class HTTPBenchmarkServer: Sendable {
  struct Issued: Sendable {
    var layerCount = 0
    var plainCount = 0
    var mismatches = 0
  }

  let server: LoopbackHTTPServer
  let issued = LockIsolated(Issued())
  let body = Data(#"{"name":"ada","admitted":true}"#.utf8)

  init(events: Int) throws {
    let issued = self.issued
    let body = self.body
    let authorizations = PKCEAuthorizations<String>()
    var router = HTTPRouter()
    router.get("/rotate") { request in
      // The layer sends the last cookie; plain URLSession sends none.
      let next = issued.withValue { issued -> String in
        guard let cookie = request.cookies["session"] else {
          issued.plainCount += 1
          return "p\(issued.plainCount)"
        }
        if cookie != "s\(issued.layerCount)" { issued.mismatches += 1 }
        issued.layerCount += 1
        return "s\(issued.layerCount)"
      }
      var response = HTTPServerResponse.json(body)
      response.setCookie(SetCookie(name: "session", value: next, httpOnly: true))
      return response
    }
    router.post("/login") { _ in
      var response = HTTPServerResponse.status(204)
      response.setCookie(SetCookie(name: "session", value: "s0", httpOnly: true))
      return response
    }
    router.get("/events") { _ in
      .eventStream { writer in
        for id in 1...events {
          guard (try? writer.send(ServerSentEvent(data: "event \(id)", id: "\(id)"))) != nil else {
            return
          }
        }
        await writer.disconnected()
      }
    }
    router.get("/authorize") { request in authorizations.authorize(request, granting: "ada") }
    router.post("/token") { request in
      guard let user = authorizations.redeem(request) else { return .status(400) }
      var response = HTTPServerResponse.json(#"{"ok":true}"#)
      response.setCookie(
        SetCookie(name: "session", value: "pkce-\(user)-\(PKCE.randomToken(byteCount: 16))"))
      return response
    }
    router.get("/whoami") { request in
      request.cookies["session"]?.hasPrefix("pkce-") == true ? .text("ada") : .status(401)
    }
    server = try LoopbackHTTPServer(router: router)
  }

  /// One whole PKCE sign-in; throws unless it ends signed in.
  func signInOnce() async throws {
    let session = HTTPSession(baseURL: server.baseURL)
    let signIn = try PKCESignIn()
    async let code = signIn.waitForCode(timeout: .seconds(30))
    let browser = URLSession(configuration: plainConfiguration())
    let (_, page) = try await browser.data(
      from: signIn.authorizationURL(server.baseURL.appendingPathComponent("authorize")))
    try check((page as? HTTPURLResponse)?.statusCode == 200, "the listener answered \(page)")
    try await signIn.exchange(try await code, through: session) {
      .authorizationCodeExchange($0, path: "/token")
    }
    let whoami = try await session.send(.get("/whoami"))
    try check(session.status == .signedIn && whoami.text == "ada", "sign-in ended \(whoami)")
  }
}
