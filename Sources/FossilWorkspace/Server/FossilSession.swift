import ComposableCore
import Foundation
import WorkspaceHTTP

/// A signed-in conversation with one Fossil server (2.21, JSON API compiled in): application
/// authentication, and the requests the workspace client makes.
///
/// ```swift
/// let session = FossilSession(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let user = try await session.signIn(name: "ada", password: password)   // JSON login
/// user.capabilities.mayCheckIn                                           // true
/// let again = try await session.restore()        // whoami: the user, or nil when signed out
/// try await session.signOut()                    // logout; the jar is cleared whatever the answer
/// ```
///
/// Built on `WorkspaceHTTP.HTTPSession`: the login cookie lives only in the session's own
/// in-memory jar (never on disk, never in a log), every write carries Fossil's CSRF proofs
/// (`CSRFPolicy.fossil`: a same-origin `Referer`), and "signed out" is a state. Fossil never
/// answers 401: a login it no longer honours — logged out from another client (Fossil keeps
/// one login per user), expired, replaced — shows as answers for `nobody`; the session
/// confirms that with a public whoami and then ends once (``status`` becomes `.signedOut`,
/// ``statusUpdates()`` tells it once, and later calls fail at once with
/// `HTTPSessionError.signedOut` instead of retrying).
///
/// Fossil refuses a request at once with "database is locked" when another writer holds its
/// repository (SQLite's lock; the handler of every write runs an `ANALYZE` after answering, so
/// a client's next write can meet it): the request's transaction was rolled back, nothing was
/// written, so the session sends it again after
/// ``FossilSessionConfiguration/lockedRepositoryBackoff`` (on the `\.clock` dependency), and
/// throws ``FossilUnavailable`` once ``FossilSessionConfiguration/lockedRepositoryAttempts``
/// were all refused so.
///
/// The sign-in posts to `/json` with the command in the body rather than to `/json/login`:
/// Fossil sets its login cookie with an empty `Path`, which a cookie jar scopes to the
/// directory of the request (RFC 6265 §5.2.4), and only `/json`'s directory is the whole
/// repository (so the forum's pages and the sync get the cookie too).
public final class FossilSession: Sendable {
  /// The repository's URL (the root `fossil server` serves, or a CGI path).
  public let baseURL: URL
  let http: HTTPSession
  private let lockedRepositoryAttempts: Int
  private let lockedRepositoryBackoff: Backoff
  private let projectCodeCache = LockIsolated<String?>(nil)

  /// A signed-out session with the Fossil server at `baseURL`.
  public init(
    baseURL: URL, configuration: FossilSessionConfiguration = FossilSessionConfiguration()
  ) {
    self.baseURL = baseURL
    lockedRepositoryAttempts = configuration.lockedRepositoryAttempts
    lockedRepositoryBackoff = configuration.lockedRepositoryBackoff
    let reference = SessionReference()
    http = HTTPSession(
      baseURL: baseURL,
      configuration: HTTPSessionConfiguration(
        csrf: configuration.csrf, sessionEnd: FossilSessionEnd.detector(reference),
        timeout: configuration.timeout, headers: ["Accept": "application/json"],
        logger: configuration.logger))
    reference.set(http)
  }

  // MARK: Application authentication

  /// Whether a login is in force, and if not, why.
  public var status: SessionStatus { http.status }

  /// The current status, then every change, once each.
  public func statusUpdates() -> AsyncStream<SessionStatus> { http.statusUpdates() }

  /// Signs in with `name` and `password` (Fossil's JSON login) and answers who the server says
  /// signed in. Any previous login of this session is dropped first (its cookie cleared).
  ///
  /// - Throws: ``FossilError/signInRefused(reason:)`` for a wrong name or password (the jar
  ///   stays empty); ``FossilUnavailable`` when the server cannot be reached;
  ///   ``FossilError/unexpectedAnswer(request:reason:)`` when the answer is not Fossil's.
  public func signIn(name: String, password: String) async throws -> FossilUser {
    http.endSession(.signedOut)
    let request = "POST /json (login)"
    let login = Login(command: "login", payload: .init(name: name, password: password))
    let response = try await send(.post("/json", body: try .json(login), access: .public))
    let answer = try FossilAnswer.payload(response, of: request, as: Login.Answer.self)
    guard http.cookies.contains(where: { $0.name == answer.loginCookieName }) else {
      http.endSession(.signedOut)
      throw FossilError.unexpectedAnswer(request: request, reason: "it set no login cookie")
    }
    http.beginSession()
    return FossilUser(
      name: answer.name, capabilities: FossilCapabilities(letters: answer.capabilities))
  }

  /// Asks the server who this session's cookie signs in (a public whoami): the user, or `nil`
  /// when the server answers `nobody` — then a session that was signed in ends (its jar is
  /// cleared, its observers told).
  public func restore() async throws -> FossilUser? {
    let request = "GET /json/whoami"
    let response = try await send(.get("/json/whoami", access: .public))
    let whoami = try FossilAnswer.payload(response, of: request, as: FossilSessionEnd.WhoAmI.self)
    guard whoami.name != FossilUser.nobodyName else {
      if http.status.isSignedIn {
        http.endSession(.serverSignal("Fossil answers as nobody: the login is no longer honoured"))
      }
      return nil
    }
    http.beginSession()
    return FossilUser(
      name: whoami.name, capabilities: FossilCapabilities(letters: whoami.capabilities ?? ""))
  }

  /// The signed-in user and their effective capabilities (`/json/cap`), asked now.
  ///
  /// - Throws: `HTTPSessionError.signedOut` when no login is in force (the server answered
  ///   `nobody`, confirmed).
  public func currentUser() async throws -> FossilUser {
    let answer: Capabilities = try await json(.get("/json/cap"))
    return FossilUser(
      name: answer.name,
      capabilities: FossilCapabilities(
        letters: answer.capabilities, effective: answer.permissionFlags))
  }

  /// Signs out: asks the server to log out (which ends this user's login everywhere), then
  /// clears the jar whatever the answer. Throws the request's failure, after clearing, so an
  /// app can say the server could not be told.
  public func signOut() async throws {
    try await transport("GET /json/logout") {
      try await self.http.signOut(notifying: .get("/json/logout"))
    }
  }

  /// The repository's project code (`/json/stat`, asked once): what tells one repository from
  /// another.
  public func projectCode() async throws -> String {
    if let known = projectCodeCache.current { return known }
    let stat: Stat = try await json(.get("/json/stat", access: .public))
    projectCodeCache.setValue(stat.projectCode)
    return stat.projectCode
  }

  // MARK: Requests

  /// Sends `request` and reads its JSON payload.
  func json<Payload: Decodable>(_ request: HTTPRequest, as _: Payload.Type = Payload.self)
    async throws -> Payload
  {
    let response = try await send(request)
    return try FossilAnswer.payload(response, of: request.summary, as: Payload.self)
  }

  /// Posts `payload` in Fossil's JSON envelope to `path` (a session call).
  func json<Payload: Decodable>(
    post path: String, payload: some Encodable, as _: Payload.Type = Payload.self
  ) async throws -> Payload {
    try await json(.post(path, body: try .json(Envelope(payload: payload))))
  }

  /// Carries one round trip of Fossil's sync protocol (clone, pull, push): posts `message`
  /// uncompressed to the repository's root and answers the reply, uncompressed too (Fossil
  /// answers in the request's content type). A `.public` exchange works signed out when the
  /// server lets `nobody` read; it carries the login cookie when there is one.
  func syncExchange(_ message: Data, access: HTTPRequest.Access) async throws -> Data {
    var request = HTTPRequest.post(
      "/", body: .bytes(message, contentType: Self.syncContentType), access: access)
    request.timeout = .seconds(120)
    let response = try await send(request)
    guard response.status == 200 else {
      throw FossilAnswer.unexpectedStatus(response, of: "POST / (sync)")
    }
    guard response.headers["Content-Type"]?.hasPrefix(Self.syncContentType) == true else {
      throw FossilError.unexpectedAnswer(
        request: "POST / (sync)", reason: "the reply is not a Fossil sync message")
    }
    return response.body
  }

  static let syncContentType = "application/x-fossil-uncompressed"

  /// Sends `request`; a transport failure becomes ``FossilUnavailable``, and a session end
  /// stays `HTTPSessionError.signedOut`. A write goes on a connection of its own, so an answer
  /// lost in transit is reported at once (never resent, or stalled until the timeout, by the
  /// URL loading system on a reused connection): its retry is the caller's decision. Only a
  /// refusal for a locked repository, which says nothing was written, is sent again here
  /// (see the type's documentation).
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let clock = DependencyValues.current.clock
    var refusals = 0
    while true {
      let response = try await transport(request.summary) {
        try await self.http.send(request, onFreshConnection: !request.method.isSafe)
      }
      guard FossilAnswer.isRepositoryLocked(response, of: request) else { return response }
      refusals += 1
      guard refusals < lockedRepositoryAttempts else {
        throw FossilUnavailable(
          "\(request.summary): the server's repository stayed locked by another writer "
            + "(\(refusals) attempts); nothing was written, try again", nothingWasWritten: true)
      }
      let delay = lockedRepositoryBackoff.delay(afterFailures: refusals)
      let wait = clock.sleep(endingIn: delay)
      http.log("↻ \(request.summary) in \(delay): the server's repository is locked")
      try await wait()
    }
  }

  private func transport<T>(_ request: String, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as HTTPSessionError where error.isTransient {
      throw FossilUnavailable("\(error)")
    }
  }

  // MARK: Payloads

  private struct Login: Encodable {
    struct Credentials: Encodable {
      var name: String
      var password: String
    }

    struct Answer: Decodable {
      var name: String
      var capabilities: String
      var loginCookieName: String
    }

    var command: String
    var payload: Credentials
  }

  private struct Envelope<Payload: Encodable>: Encodable {
    var payload: Payload
  }

  private struct Capabilities: Decodable {
    var name: String
    var capabilities: String
    var permissionFlags: [String: Bool]?
  }

  private struct Stat: Decodable {
    var projectCode: String
  }
}
