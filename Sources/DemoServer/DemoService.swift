import ComposableCore
import DemoHTTPProtocol
import Foundation
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// The in-memory `DemoSystem` behind the demo's HTTP protocol (``DemoAPI``): the PKCE sign-in
/// door, cookie sessions that rotate (``CookieRotation``), CSRF echo, admission and grants, the
/// catalogue, idempotent proposal creation, a reviewer's merge and a server-sent event channel.
///
/// It is a handler: serve it with ``DemoServer`` (what `demo-cli serve` does), or wrap it in a
/// `LoopbackHTTPServer` of your own to inject faults around it:
///
/// ```swift
/// let service = DemoService()
/// let server = try LoopbackHTTPServer { request in
///   let answer = await service.handle(request)
///   return request.path == DemoAPI.proposals ? .closeWithoutAnswer : answer  // answer lost
/// }
/// ```
///
/// Passwords are checked by the system and never kept; cookie values and PKCE codes are
/// random and never logged; the system's own session tokens never leave the server.
public final class DemoService: Sendable {
  /// Tunables of the service.
  public struct Configuration: Sendable {
    /// When session cookies rotate and how long a superseded value stays honoured.
    public var cookieRotation: CookieRotation
    /// How often an idle event stream gets a comment (and its session is checked).
    public var heartbeat: Duration
    /// The reconnection time event streams advise (`retry:`).
    public var reconnectionTime: Duration
    /// Called with a proposal's idempotency key after the key was claimed and before its
    /// record is created: where a test holds a creation in flight. Does nothing by default.
    public var beforeRecordCreation: @Sendable (String) async -> Void
    /// Receives one line per answered request (`POST /v1/proposals → 201`): method, path
    /// (never the query) and status; and, served by ``DemoServer``, one per request or
    /// connection the server refused (`GET /v1/me → 408 (The request did not arrive in
    /// time.)`, `- - → 503 (…)`). `nil` logs nothing.
    public var log: (@Sendable (String) -> Void)?

    public init(
      cookieRotation: CookieRotation = CookieRotation(), heartbeat: Duration = .seconds(15),
      reconnectionTime: Duration = .seconds(1),
      beforeRecordCreation: @escaping @Sendable (String) async -> Void = { _ in },
      log: (@Sendable (String) -> Void)? = nil
    ) {
      self.cookieRotation = cookieRotation
      self.heartbeat = heartbeat
      self.reconnectionTime = reconnectionTime
      self.beforeRecordCreation = beforeRecordCreation
      self.log = log
    }
  }

  private let endpoints: Endpoints
  private let router: HTTPRouter

  /// A service over `system`: a freshly seeded in-memory `DemoSystem` by default, or a
  /// ``DurableDemoSystem`` that keeps everything in a SQLite file.
  public init(
    system: any ServedSystem = DemoSystem(), configuration: Configuration = Configuration()
  ) {
    let endpoints = Endpoints(system: system, configuration: configuration)
    self.endpoints = endpoints
    self.router = endpoints.router()
  }

  /// The system behind the protocol (tests act on it directly, as another client would).
  public var system: any ServedSystem { endpoints.system }

  /// How many announcements the event channel has made.
  public var announcementCount: Int { endpoints.announcements.lastID }

  /// Answers one request.
  public func handle(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    let response = await router.handle(request)
    endpoints.configuration.log?("\(request.method) \(request.path) → \(response.status)")
    return response
  }

  /// Logs a request or connection the server refused before it reached ``handle(_:)``.
  func log(_ refusal: HTTPRefusal) {
    endpoints.configuration.log?(refusal.description)
  }
}

/// The service's state and its endpoints, one method per route (see the extensions).
final class Endpoints: Sendable {
  let system: any ServedSystem
  let configuration: DemoService.Configuration
  let sessions: CookieSessions
  let door = LoginDoor()
  let announcements = AnnouncementLog()
  let inFlight = InFlightKeys()
  let fingerprints = PayloadFingerprints()

  init(system: any ServedSystem, configuration: DemoService.Configuration) {
    self.system = system
    self.configuration = configuration
    self.sessions = CookieSessions(rotation: configuration.cookieRotation)
  }

  /// Every route of ``DemoAPI``.
  func router() -> HTTPRouter {
    var router = HTTPRouter()
    router.get(DemoAPI.authorize) { await self.authorize($0) }
    router.post(DemoAPI.login) { await self.login($0) }
    router.post(DemoAPI.token) { await self.token($0) }
    router.post(DemoAPI.logout) { await self.logout($0) }
    router.get(DemoAPI.me) { await self.me($0) }
    router.post(DemoAPI.admissions) { await self.admit($0) }
    router.get(DemoAPI.Pattern.grant) { await self.validateGrant($0) }
    router.add(.delete, DemoAPI.Pattern.grant) { await self.relinquishGrant($0) }
    router.get(DemoAPI.branches) { await self.branches($0) }
    router.get(DemoAPI.Pattern.branch) { await self.head($0) }
    router.get(DemoAPI.Pattern.revision) { await self.revision($0) }
    router.get(DemoAPI.proposals) { await self.listing($0) }
    router.post(DemoAPI.proposals) { await self.createProposal($0) }
    router.get(DemoAPI.reviewProposals) { await self.records($0) }
    router.get(DemoAPI.Pattern.reviewProposal) { await self.record($0) }
    router.post(DemoAPI.Pattern.merge) { await self.merge($0) }
    router.get(DemoAPI.events) { await self.events($0) }
    router.get(DemoAPI.SQLite.Pattern.head) { await self.sqliteHead($0) }
    router.get(DemoAPI.SQLite.Pattern.revision) { await self.sqliteRevision($0) }
    router.get(DemoAPI.SQLite.proposals) { await self.sqliteProposals($0) }
    router.post(DemoAPI.SQLite.proposals) { await self.sqlitePropose($0) }
    router.post(DemoAPI.SQLite.Pattern.merge) { await self.sqliteMerge($0) }
    return router
  }

  // MARK: Sessions

  /// Who a session call comes from.
  struct Caller: Sendable {
    let session: CookieSessions.Session
    let account: DemoAccount
  }

  /// Runs a session call: 401 without a live session, 403 for a mutation without the
  /// session's CSRF proof. The answer carries new cookie values when they are due (unless
  /// `body` ended the session).
  func asSession(
    _ request: HTTPServerRequest, _ body: (Caller) async -> HTTPServerResponse
  ) async -> HTTPServerResponse {
    guard let session = sessions.session(for: request) else { return .signedOut }
    guard let account = try? await system.account(token: session.token) else {
      sessions.end(session.handle)
      return .signedOut
    }
    guard request.method.isSafe || sessions.checkCSRF(request, of: session) else {
      return .problem(
        403, .csrf, "CSRF check failed",
        "a mutation must echo the \(DemoAPI.csrfCookie) cookie as \(DemoAPI.csrfHeader)")
    }
    var response = await body(Caller(session: session, account: account))
    for cookie in sessions.rotate(session.handle)?.cookies ?? [] { response.setCookie(cookie) }
    return response
  }

  /// `nil` when `grant` is honoured for the caller's session; else the 403.
  func checkGrant(_ grant: String?, of caller: Caller) async -> HTTPServerResponse? {
    guard let grant, !grant.isEmpty else {
      return .problem(403, .grantInvalid, "No grant", "the request names no authoring grant")
    }
    do throws(DemoError) {
      _ = try await system.validate(grantID: grant, token: caller.session.token)
      return nil
    } catch {
      return Self.refusal(error)
    }
  }

  /// A read: public, unless it names a grant — then a session call checked against it.
  func read(
    _ request: HTTPServerRequest, _ body: () async -> HTTPServerResponse
  ) async -> HTTPServerResponse {
    guard request.headers[DemoAPI.grantHeader] != nil else { return await body() }
    return await asSession(request) { caller in
      if let refusal = await checkGrant(request.headers[DemoAPI.grantHeader], of: caller) {
        return refusal
      }
      return await body()
    }
  }

  /// The answer to a refusal of the system.
  static func refusal(_ error: DemoError) -> HTTPServerResponse {
    switch error {
    case .unknownAccount, .wrongPassword:
      return .problem(401, .badCredentials, "Sign-in refused", "wrong username or password")
    case .sessionExpired:
      return .signedOut
    case .admissionDenied(let reason):
      return .problem(403, .admissionDenied, "Admission denied", reason)
    case .grantInvalid:
      return .problem(403, .grantInvalid, "Grant not honoured", error.description)
    case .noSuchBranch, .noSuchRevision, .noSuchProposal:
      return .notFound(error.description)
    case .headMoved(let branch, let expected, let actual):
      return .problem(
        DemoAPI.Problem(
          status: 412, code: .headMoved, title: "The branch moved", detail: error.description,
          branch: branch, expected: expected, actual: actual))
    case .idempotencyConflict:
      return .idempotency(.keyReused)
    case .proposalNotOpen:
      return .problem(409, .notOpen, "Not open", error.description)
    case .mergeConflict:
      return .problem(409, .mergeConflict, "Merge conflict", error.description)
    case .counterExhausted, .unavailable:
      return .problem(503, .other, "Unavailable", error.description)
    }
  }
}
