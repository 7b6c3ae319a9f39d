import ComposableCore
import DemoHTTPProtocol
import LoopbackHTTPServer
import WorkspaceDemoFeature
import WorkspaceHTTP

/// The server's cookie sessions: each maps to one `DemoSystem` session (whose token never
/// leaves the server) and holds the newest session and CSRF cookie values it issued.
///
/// Every answer to a session call rotates both values. The previous ``grace`` values stay
/// honoured, so requests the client had in flight with an older cookie (a stream opening
/// while a command runs) are not refused; anything older is forgotten.
final class CookieSessions: Sendable {
  /// One signed-in session.
  struct Session: Sendable {
    /// The public handle (`s1`, `s2`…): shown to the app, never a credential.
    let handle: String
    /// The `DemoSystem` session token.
    let token: String
    /// Issued session cookie values, oldest first.
    var cookies: [String]
    /// Issued CSRF values, oldest first.
    var csrf: [String]
  }

  /// A fresh pair of cookie values.
  struct Issued: Sendable {
    let session: String
    let csrf: String

    /// The two `Set-Cookie` headers.
    var cookies: [SetCookie] {
      [
        SetCookie(
          name: DemoAPI.sessionCookie, value: session, httpOnly: true, sameSite: "Lax"),
        SetCookie(name: DemoAPI.csrfCookie, value: csrf, sameSite: "Strict"),
      ]
    }
  }

  private struct State {
    var sessions: [String: Session] = [:]
    var byCookie: [String: String] = [:]
    var issuedCount = 0
  }

  private let state = LockIsolated(State())
  /// How many earlier cookie values stay honoured after a rotation.
  let grace: Int

  init(grace: Int) {
    self.grace = max(0, grace)
  }

  /// Starts a cookie session for `demo`; answers it and its first cookie values.
  func begin(_ demo: DemoSession) -> (Session, Issued) {
    let issued = Self.fresh()
    let session = state.withValue { state -> Session in
      state.issuedCount += 1
      let session = Session(
        handle: "s\(state.issuedCount)", token: demo.token, cookies: [issued.session],
        csrf: [issued.csrf])
      state.sessions[session.handle] = session
      state.byCookie[issued.session] = session.handle
      return session
    }
    return (session, issued)
  }

  /// The session a request's session cookie belongs to, if it is still honoured.
  func session(for request: HTTPServerRequest) -> Session? {
    guard let value = request.cookies[DemoAPI.sessionCookie] else { return nil }
    return state.withValue { state in
      state.byCookie[value].flatMap { state.sessions[$0] }
    }
  }

  /// Whether session `handle` still exists.
  func isLive(_ handle: String) -> Bool {
    state.withValue { $0.sessions[handle] != nil }
  }

  /// Whether `request` proves it comes from the session's own client: its `X-CSRF-Token`
  /// equals its `csrf` cookie, and that value was issued to `session`.
  func checkCSRF(_ request: HTTPServerRequest, of session: Session) -> Bool {
    guard let header = request.headers[DemoAPI.csrfHeader],
      header == request.cookies[DemoAPI.csrfCookie]
    else { return false }
    return state.withValue { $0.sessions[session.handle]?.csrf.contains(header) ?? false }
  }

  /// Issues the next cookie values of `handle` (forgetting those beyond the grace); `nil` when
  /// the session ended meanwhile.
  func rotate(_ handle: String) -> Issued? {
    let issued = Self.fresh()
    return state.withValue { state -> Issued? in
      guard var session = state.sessions[handle] else { return nil }
      session.cookies.append(issued.session)
      session.csrf.append(issued.csrf)
      state.byCookie[issued.session] = handle
      while session.cookies.count > grace + 1 {
        state.byCookie[session.cookies.removeFirst()] = nil
      }
      while session.csrf.count > grace + 1 { session.csrf.removeFirst() }
      state.sessions[handle] = session
      return issued
    }
  }

  /// Ends session `handle`; answers it if it existed.
  @discardableResult
  func end(_ handle: String) -> Session? {
    state.withValue { state in
      guard let session = state.sessions.removeValue(forKey: handle) else { return nil }
      for value in session.cookies { state.byCookie[value] = nil }
      return session
    }
  }

  private static func fresh() -> Issued {
    Issued(session: PKCE.randomToken(byteCount: 24), csrf: PKCE.randomToken(byteCount: 18))
  }
}
