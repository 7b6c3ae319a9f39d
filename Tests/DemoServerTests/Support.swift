import ComposableCore
import DemoHTTPProtocol
import DemoServer
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// A reference server for one test, with a request log, stopped by ``stop()``.
final class TestServer: Sendable {
  let service: DemoService
  let server: LoopbackHTTPServer
  private let log = LockedLog<HTTPServerRequest>()

  init(
    system: any ServedSystem = DemoSystem(), configuration: DemoService.Configuration = .init()
  ) throws {
    let service = DemoService(system: system, configuration: configuration)
    let log = self.log
    self.service = service
    self.server = try LoopbackHTTPServer { request in
      log.append(request)
      return await service.handle(request)
    }
  }

  var baseURL: URL { server.baseURL }
  var system: any ServedSystem { service.system }
  var requests: [HTTPServerRequest] { log.all }

  func stop() async { await server.stop() }

  /// A session with the demo's CSRF policy (signed out).
  func session(timeout: Duration = .seconds(10)) -> HTTPSession {
    HTTPSession(
      baseURL: baseURL,
      configuration: HTTPSessionConfiguration(
        csrf: .echoCookie(DemoAPI.csrfCookie, asHeader: DemoAPI.csrfHeader), timeout: timeout))
  }

  /// Passes the sign-in door as a browser and the app would, without a listener: the
  /// authorization request, the login form, the redirect's code, the exchange.
  func signIn(
    _ username: String = "ada", _ password: String = "lovelace", into session: HTTPSession? = nil
  ) async throws -> (HTTPSession, DemoAPI.Me) {
    let session = session ?? self.session()
    let pkce = PKCE()
    let redirect = URL(string: "http://127.0.0.1:9/callback")!
    let code = try await authorize(session, pkce: pkce, redirect: redirect, username, password)
    let answer = try await session.send(
      .authorizationCodeExchange(
        PKCEExchange(code: code, verifier: pkce.verifier, redirectURI: redirect),
        path: DemoAPI.token))
    try #require(answer.status == 200, "the exchange answered \(answer.status): \(answer.text)")
    session.beginSession()
    return (session, try answer.decode(DemoAPI.Me.self))
  }

  /// The authorization request and the login form: the code the door redirects with.
  func authorize(
    _ session: HTTPSession, pkce: PKCE, redirect: URL, _ username: String, _ password: String,
    state: String = "st4te"
  ) async throws -> String {
    let login = try await openLogin(session, pkce: pkce, redirect: redirect, state: state)
    let answer = try await session.send(loginForm(login, username, password))
    try #require(answer.status == 302, "the login form answered \(answer.status): \(answer.text)")
    let location = try #require(answer.headers["Location"].flatMap(URLComponents.init(string:)))
    #expect(location.host == "127.0.0.1" && location.port == 9 && location.path == "/callback")
    let items = location.queryItems ?? []
    #expect(items.first { $0.name == "state" }?.value == state)
    return try #require(items.first { $0.name == "code" }?.value)
  }

  /// The login form's pending-login id.
  func openLogin(_ session: HTTPSession, pkce: PKCE, redirect: URL, state: String) async throws
    -> String
  {
    let page = try await session.send(
      .get(
        DemoAPI.authorize,
        query: [
          URLQueryItem(name: "response_type", value: "code"),
          URLQueryItem(name: "redirect_uri", value: redirect.absoluteString),
          URLQueryItem(name: "code_challenge", value: pkce.challenge),
          URLQueryItem(name: "code_challenge_method", value: "S256"),
          URLQueryItem(name: "state", value: state),
        ], access: .public))
    try #require(page.status == 200, "the door answered \(page.status)")
    let marker = "name=\"\(DemoAPI.loginField)\" value=\""
    let start = try #require(page.text.range(of: marker))
    return String(page.text[start.upperBound...].prefix { $0 != "\"" })
  }

  func loginForm(_ login: String, _ username: String, _ password: String, json: Bool = false)
    -> HTTPRequest
  {
    var request = HTTPRequest.post(
      DemoAPI.login,
      body: .form([
        HTTPBody.FormField(DemoAPI.loginField, login), HTTPBody.FormField("username", username),
        HTTPBody.FormField("password", password),
      ]), access: .public)
    if json { request.headers["Accept"] = "application/json" }
    return request
  }

  /// `GET path` (`/v1/me`) with only the given session cookie value, from a fresh jar.
  ///
  /// Bounded: when the cookie is still honoured, `GET /v1/events` opens a stream whose
  /// heartbeats would keep a plain `send` waiting forever; the test then fails with a message.
  func me(withCookie value: String, path: String = DemoAPI.me) async throws -> HTTPResponse {
    var request = HTTPRequest.get(path, access: .public)
    request.headers["Cookie"] = "\(DemoAPI.sessionCookie)=\(value)"
    let session = HTTPSession(baseURL: baseURL)
    return try await within(10, "the answer to GET \(path)") { [request] in
      try await session.send(request)
    }
  }

  /// Signs in (as ada by default) and admits the person: the session and the grant.
  func author(_ username: String = "ada", _ password: String = "lovelace") async throws
    -> (HTTPSession, DemoAPI.Grant)
  {
    let (session, _) = try await signIn(username, password)
    let answer = try await session.send(HTTPRequest(method: .post, path: DemoAPI.admissions))
    try #require(answer.status == 201, "admission answered \(answer.status)")
    return (session, try answer.decode(DemoAPI.Grant.self))
  }
}

/// Proposes one event titled `id` under `grant`; answers the proposal's id.
func propose(_ session: HTTPSession, _ grant: String, _ id: String) async throws -> String {
  var request = HTTPRequest.post(
    DemoAPI.proposals,
    body: try .json(
      draft(
        grant, title: id,
        changes: EventChangeSet(added: [
          Event(id: id, title: id, date: "2027-01-01", venue: "Hall")
        ]))))
  request.headers["Idempotency-Key"] = UUID().uuidString
  return try await session.send(request).decode(DemoProposal.self).id
}

/// Items appended from any thread, read in order.
final class LockedLog<Item: Sendable>: Sendable {
  private let items = LockIsolated<[Item]>([])
  func append(_ item: Item) { items.withValue { $0.append(item) } }
  var all: [Item] { items.current }
}

extension HTTPResponse {
  /// The problem document of a refusal.
  var problem: DemoAPI.Problem? { try? decode(DemoAPI.Problem.self) }

  /// The value of the `Set-Cookie` line for `name` (the first), if any.
  func setCookie(_ name: String) -> String? {
    headers.values(for: "Set-Cookie").flatMap { $0.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .first { $0.hasPrefix("\(name)=") }
  }
}

/// The JSON of a proposal draft of `changes` against `base` under `grant`.
func draft(
  _ grant: String, title: String = "Talk", base: String = "r1",
  changes: EventChangeSet = EventChangeSet(
    added: [Event(id: "e9", title: "Talk", date: "2027-05-01", venue: "Hall")])
) -> DemoAPI.NewProposal {
  DemoAPI.NewProposal(
    grant: grant, title: title, summary: "", branch: "published", base: base, changes: changes)
}
