import ComposableCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A signed-in conversation with one server over URLSession: the session's own in-memory
/// cookie jar (URLSession's cookie handling is off), the server's CSRF policy on every
/// mutation, and "signed out" as a state.
///
/// ```swift
/// let session = HTTPSession(
///   baseURL: workspacesServer,
///   configuration: .init(csrf: .echoCookie("csrf", asHeader: "X-CSRF-Token")))
/// let answer = try await session.send(.post("/auth/session", body: .form(["ticket": t]),
///                                           access: .public))
/// if answer.isSuccess { session.beginSession() }
/// let me = try await session.send(.json(.get("/v1/me"), as: Me.self))
/// for await status in session.statusUpdates() { … }   // .signedOut(.unauthorized) once
/// ```
///
/// Every response may rotate cookies; the next request carries the new ones. A 401 on a
/// ``HTTPRequest/Access/session`` call (or the configuration's ``SessionEndDetector``) ends
/// the session once: the jar is emptied, ``status`` becomes `.signedOut(reason)`, observers
/// hear it once, and later session calls fail at once with ``HTTPSessionError/signedOut``
/// (no retry loop). Answers to requests sent before a session ended are dropped: they can
/// never put cookies back.
///
/// ## Concurrent calls and rotating cookies
///
/// An answer is judged against the cookies its request carried. When newer cookies arrived
/// while a request was in flight (another call's answer rotated them) and the server refused
/// the older ones, the request is sent once more with the newest; only a refusal of the
/// cookies the jar holds now ends the session. So any number of calls at once never sign a
/// person out because they raced a rotation, while a session the server really ended (signed
/// out, expired, or cookies superseded long ago) still ends at the first refusal. A refused
/// request was not acted on (RFC 9110 §15.5.2), so sending it again is safe for any method.
/// Servers should keep a superseded value honoured for a while after rotating it, as
/// `DemoServer`'s `CookieRotation` does; then the second try is rarely needed.
public final class HTTPSession: Sendable {
  /// The server: every request's path is resolved below it.
  public let baseURL: URL
  /// How the session treats its server (CSRF, session end, timeout, logging).
  public let configuration: HTTPSessionConfiguration
  private let transport: URLTransport
  /// For intents: each request closes its connection, so none rides a reused one.
  private let freshConnections: URLTransport
  private let state: LockIsolated<State>

  private struct State {
    var jar: CookieJar
    var status: SessionStatus = .signedOut(nil)
    /// Moves on every session end; answers to requests of an older generation are dropped.
    var generation = 0
    var observers: [UUID: AsyncStream<SessionStatus>.Continuation] = [:]
  }

  /// A request ready for URLSession, with what its answer is checked against.
  struct Prepared {
    var urlRequest: URLRequest
    let url: URL
    let summary: String
    let timeout: Duration
    let access: HTTPRequest.Access
    let generation: Int
    /// The `Cookie` header the request carried (`nil`: none).
    let cookieHeader: String?
    /// Whether a refusal of cookies superseded in flight sends it again (false on that try).
    let mayRetrySupersededCookies: Bool
  }

  /// An answer that would have ended the session, given to cookies that newer ones replaced
  /// while the request was in flight: the request deserves a try with the newest.
  struct SupersededCookies: Error {}

  /// A signed-out session with `baseURL`'s server and an empty jar.
  public init(baseURL: URL, configuration: HTTPSessionConfiguration = HTTPSessionConfiguration()) {
    self.baseURL = baseURL
    self.configuration = configuration
    self.transport = URLSessionFactory.makeTransport(timeout: configuration.timeout)
    self.freshConnections = URLSessionFactory.makeTransport(timeout: configuration.timeout)
    self.state = LockIsolated(State(jar: CookieJar(maximumCount: configuration.maximumCookieCount)))
  }

  deinit {
    // Never waits: the last reference may go on a cooperative thread, inside a task.
    transport.invalidate()
    freshConnections.invalidate()
  }

  // MARK: Session state

  /// Whether the session is signed in, and if not, why.
  public var status: SessionStatus { state.withValue { $0.status } }

  /// The current status, then every change, once each.
  public func statusUpdates() -> AsyncStream<SessionStatus> {
    let (stream, continuation) = AsyncStream.makeStream(of: SessionStatus.self)
    let id = UUID()
    state.withValue { state in
      state.observers[id] = continuation
      continuation.yield(state.status)
    }
    continuation.onTermination = { [state] _ in
      state.withValue { _ = $0.observers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Marks the session signed in, after the app verified a sign-in (a token exchange, a
  /// login answer) made through this session.
  public func beginSession() {
    state.withValue { state in
      guard state.status != .signedIn else { return }
      state.status = .signedIn
      for observer in state.observers.values { observer.yield(.signedIn) }
    }
    log("session began")
  }

  /// Ends the session: empties the jar, drops every answer still in flight, and tells
  /// observers (once: ending a session that is already signed out tells no one again).
  public func endSession(_ reason: SessionEnd = .signedOut) {
    endSession(reason, ifGeneration: nil)
  }

  /// Signs out: sends `notifying` (if any) as a public call carrying the session's cookies,
  /// then ends the session whatever the server answered. Throws the notification's failure,
  /// after ending the session, so the app can say the server could not be told.
  public func signOut(notifying request: HTTPRequest? = nil) async throws {
    defer { endSession(.signedOut) }
    if var request {
      request.access = .public
      _ = try await send(request)
    }
  }

  /// The cookies the jar holds (their descriptions redact values).
  public var cookies: [Cookie] { state.withValue { $0.jar.cookies } }

  /// The cookie named `name` that a request to `path` would carry.
  public func cookie(named name: String, forPath path: String = "/") -> Cookie? {
    guard let url = try? url(for: path, query: []) else { return nil }
    let now = configuration.now()
    return state.withValue { $0.jar.cookie(named: name, for: url, at: now) }
  }

  private func endSession(_ reason: SessionEnd, ifGeneration generation: Int?) {
    let ended = state.withValue { state -> Bool in
      if let generation, generation != state.generation { return false }
      state.generation += 1
      state.jar.removeAll()
      let wasSignedIn = state.status.isSignedIn
      state.status = .signedOut(reason)
      if wasSignedIn {
        for observer in state.observers.values { observer.yield(.signedOut(reason)) }
      }
      return true
    }
    if ended { log("session ended: \(reason); cookies cleared") }
  }

  // MARK: Requests

  /// Sends `request` and returns the server's answer, whatever its status (only a session
  /// end is turned into an error).
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await send(request, onFreshConnection: false)
  }

  /// Sends `request`; `onFreshConnection` sends it on a connection of its own, closed after
  /// the answer. On a reused keep-alive connection that the server closes without an answer,
  /// FoundationNetworking (libcurl) silently resends a request without a body, and stalls a
  /// request with a body until its timeout; on a fresh connection the loss is reported at
  /// once, and the caller decides about a retry. Send a write that is not idempotent (and
  /// has no ``IdempotentIntent``) this way.
  public func send(_ request: HTTPRequest, onFreshConnection: Bool) async throws -> HTTPResponse {
    do {
      return try await attempt(request, onFreshConnection: onFreshConnection)
    } catch is SupersededCookies {
      log("\(request.summary): refused cookies were superseded in flight; sent again")
      return try await attempt(request, onFreshConnection: onFreshConnection, isLastTry: true)
    }
  }

  private func attempt(
    _ request: HTTPRequest, onFreshConnection: Bool, isLastTry: Bool = false
  ) async throws -> HTTPResponse {
    var prepared = try prepare(request, isLastTry: isLastTry)
    if onFreshConnection { prepared.urlRequest.setValue("close", forHTTPHeaderField: "Connection") }
    log(Self.requestLine(prepared))
    let data: Data
    let urlResponse: URLResponse
    do {
      let transport = onFreshConnection ? freshConnections : self.transport
      (data, urlResponse) = try await transport.data(for: prepared.urlRequest)
    } catch {
      throw failure(error, prepared)
    }
    guard let http = urlResponse as? HTTPURLResponse else {
      throw HTTPSessionError.connectionFailed(request: prepared.summary, reason: "not HTTP")
    }
    return try await receive(HTTPHeaders(http), status: http.statusCode, body: data, for: prepared)
  }

  /// Sends the endpoint's request and reads its answer.
  public func send<Value>(_ endpoint: HTTPEndpoint<Value>) async throws -> Value {
    try endpoint.read(try await send(endpoint.request))
  }

  /// Builds the URLRequest: session and request headers, the jar's cookies, CSRF proofs.
  /// `isLastTry`: a refusal of its cookies ends the session even if they were superseded.
  func prepare(_ request: HTTPRequest, isLastTry: Bool = false) throws(HTTPSessionError) -> Prepared
  {
    let url = try url(for: request.path, query: request.query)
    let now = configuration.now()
    let (cookies, generation, status) = state.withValue {
      ($0.jar.cookies(for: url, at: now), $0.generation, $0.status)
    }
    if request.access == .session && !status.isSignedIn { throw .signedOut }
    let timeout = (request.timeout ?? configuration.timeout).effectiveTimeout
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.timeoutInterval = timeout.timeInterval
    for field in configuration.headers {
      urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
    }
    for field in request.headers {
      urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
    }
    let cookieHeader = Self.cookieHeader(cookies)
    if let cookieHeader {
      let (bytes, limit) = (cookieHeader.utf8.count, configuration.maximumCookieHeaderBytes)
      guard bytes <= limit else {
        throw .cookieHeaderTooLarge(request: request.summary, bytes: bytes, limit: limit)
      }
      urlRequest.setValue(cookieHeader, forHTTPHeaderField: "Cookie")
    }
    var body = request.body
    try configuration.csrf.prove(
      &urlRequest, body: &body, method: request.method, url: url, cookies: cookies,
      access: request.access)
    if let (data, contentType) = body.encoded {
      urlRequest.httpBody = data
      if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
        urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
      }
    }
    return Prepared(
      urlRequest: urlRequest, url: url, summary: request.summary, timeout: timeout,
      access: request.access, generation: generation, cookieHeader: cookieHeader,
      mayRetrySupersededCookies: !isLastTry)
  }

  private static func cookieHeader(_ cookies: [Cookie]) -> String? {
    cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  /// Takes an answer's cookies into the jar (unless the session ended meanwhile) and ends the
  /// session if the answer says so. Throws ``HTTPSessionError/signedOut``, or
  /// `SupersededCookies` when the refused cookies were replaced while the request was in flight.
  func receive(
    _ headers: HTTPHeaders, status: Int, body: Data, for prepared: Prepared
  ) async throws -> HTTPResponse {
    log(
      "← \(status) \(prepared.summary) · \(Redaction.headers(headers.pairs))"
        + " · \(body.count) bytes")
    try takeCookies(headers, for: prepared)
    let response = HTTPResponse(status: status, headers: headers, body: body)
    if prepared.access == .session, let end = await configuration.sessionEnd.detect(response) {
      if wereSuperseded(prepared) { throw SupersededCookies() }
      endSession(end, ifGeneration: prepared.generation)
      throw HTTPSessionError.signedOut
    }
    return response
  }

  /// Whether the jar holds other cookies for the request's URL than those it carried (never
  /// on a last try).
  private func wereSuperseded(_ prepared: Prepared) -> Bool {
    guard prepared.mayRetrySupersededCookies, let sent = prepared.cookieHeader else { return false }
    let now = configuration.now()
    let current = state.withValue { state -> String?? in
      guard state.generation == prepared.generation else { return .none }
      return .some(Self.cookieHeader(state.jar.cookies(for: prepared.url, at: now)))
    }
    guard case .some(let header) = current else { return false }
    return header != nil && header != sent
  }

  /// Stores the `Set-Cookie` lines of an answer to `prepared`; throws
  /// ``HTTPSessionError/signedOut`` (storing nothing) when the session ended after the request
  /// was sent.
  func takeCookies(_ headers: HTTPHeaders, for prepared: Prepared) throws(HTTPSessionError) {
    let lines = headers.values(for: "Set-Cookie").flatMap(SetCookieLine.splitCombined)
    let now = configuration.now()
    let receipts = state.withValue { state -> [CookieJar.Receipt]? in
      guard state.generation == prepared.generation else { return nil }
      return state.jar.receive(lines, from: prepared.url, at: now)
    }
    guard let receipts else {
      log("answer to \(prepared.summary) dropped: the session ended while it was in flight")
      throw .signedOut
    }
    for case .rejected(let reason) in receipts { log("cookie refused: \(reason)") }
  }

  /// A URLSession failure as a session error (cancellation stays cancellation).
  func failure(_ error: any Error, _ prepared: Prepared) -> any Error {
    if Task.isCancelled { return CancellationError() }
    let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
    if code == URLError.Code.cancelled.rawValue { return CancellationError() }
    let mapped = HTTPSessionError.from(
      urlErrorCode: code, request: prepared.summary, timeout: prepared.timeout)
    log("✗ \(mapped)")
    return mapped
  }

  /// `baseURL` + `path` (percent-encoded, below the base path) + `query`.
  func url(for path: String, query: [URLQueryItem]) throws(HTTPSessionError) -> URL {
    guard path.hasPrefix("/"), path.unicodeScalars.allSatisfy(Self.isPathScalar),
      !Self.hasDotSegment(path),
      var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
    else { throw .invalidPath(path) }
    let basePath = components.percentEncodedPath
    components.percentEncodedPath =
      (basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath) + path
    if !query.isEmpty {
      components.percentEncodedQuery = query.map {
        Self.queryEncode($0.name) + ($0.value.map { "=" + Self.queryEncode($0) } ?? "")
      }.joined(separator: "&")
    }
    guard let url = components.url else { throw .invalidPath(path) }
    return url
  }

  private static let pathAllowed = CharacterSet.urlPathAllowed.union(
    CharacterSet(charactersIn: "%"))
  private static let queryAllowed = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

  /// Whether `path` has a `.` or `..` segment (percent-encoded or not), which would take a
  /// request out of the session's base path (`/../admin`) once a server or proxy resolves it.
  private static func hasDotSegment(_ path: String) -> Bool {
    path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
      let decoded = String(segment).removingPercentEncoding ?? String(segment)
      return decoded == "." || decoded == ".."
    }
  }

  private static func isPathScalar(_ scalar: Unicode.Scalar) -> Bool {
    pathAllowed.contains(scalar)
  }

  private static func queryEncode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? ""
  }

  /// Writes `line` through the configuration's logger, if it has one. For layers built on the
  /// session (a Fossil client, say) that narrate their own steps beside its request lines;
  /// the line is built only when there is a logger. Never pass a secret.
  public func log(_ line: @autoclosure () -> String) {
    configuration.logger?.log(line())
  }

  /// `→ GET /v1/me?token=<redacted> · Cookie: session=<redacted> · 0 bytes`.
  static func requestLine(_ prepared: Prepared) -> String {
    let headers = (prepared.urlRequest.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
      .map { (name: $0.key, value: $0.value) }
    let method = prepared.urlRequest.httpMethod ?? "GET"
    return "→ \(method) \(Redaction.pathAndQuery(prepared.url)) · \(Redaction.headers(headers))"
      + " · \(prepared.urlRequest.httpBody?.count ?? 0) bytes"
  }
}

extension HTTPHeaders {
  /// The response's header fields (several `Set-Cookie` lines arrive joined by commas).
  init(_ response: HTTPURLResponse) {
    self.init()
    for (name, value) in response.allHeaderFields {
      add(String(describing: name), String(describing: value))
    }
  }

  var pairs: [(name: String, value: String)] {
    map { (name: $0.name, value: $0.value) }
  }
}
