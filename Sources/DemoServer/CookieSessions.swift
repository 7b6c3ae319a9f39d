import ComposableCore
import DemoHTTPProtocol
import Foundation
import HTTPMessages
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// The server's cookie sessions: each maps to one `DemoSystem` session (whose token never
/// leaves the server) and holds the session and CSRF cookie values it issued that are still
/// honoured, as ``CookieRotation`` says: the newest, and superseded ones for a grace period.
final class CookieSessions: Sendable {
  /// One signed-in session.
  struct Session: Sendable {
    /// The public handle (`s1`, `s2`…): shown to the app, never a credential.
    let handle: String
    /// The `DemoSystem` session token.
    let token: String
    /// Issued values still honoured, oldest first; the last is the newest.
    fileprivate var issued: [Issued]
  }

  /// A pair of cookie values, issued together.
  struct Issued: Sendable {
    let session: String
    let csrf: String
    let issuedAt: Date
    /// When newer values were issued; `nil` for the newest.
    fileprivate(set) var supersededAt: Date?

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
  let rotation: CookieRotation

  init(rotation: CookieRotation) {
    self.rotation = rotation
  }

  /// Starts a cookie session for `demo`; answers it and its first cookie values.
  func begin(_ demo: DemoSession) -> (Session, Issued) {
    let issued = Self.fresh(at: rotation.now())
    let session = state.withValue { state -> Session in
      state.issuedCount += 1
      let session = Session(handle: "s\(state.issuedCount)", token: demo.token, issued: [issued])
      state.sessions[session.handle] = session
      state.byCookie[issued.session] = session.handle
      return session
    }
    return (session, issued)
  }

  /// The session a request's session cookie belongs to, if that value is still honoured.
  func session(for request: HTTPServerRequest) -> Session? {
    guard let value = request.cookies[DemoAPI.sessionCookie] else { return nil }
    let now = rotation.now()
    return state.withValue { state in
      guard let handle = state.byCookie[value] else { return nil }
      forgetExpired(of: handle, at: now, in: &state)
      return state.byCookie[value].flatMap { state.sessions[$0] }
    }
  }

  /// Whether session `handle` still exists.
  func isLive(_ handle: String) -> Bool {
    state.withValue { $0.sessions[handle] != nil }
  }

  /// Whether `request` proves it comes from the session's own client: its `X-CSRF-Token`
  /// equals its `csrf` cookie, and that value was issued to `session` and is still honoured.
  func checkCSRF(_ request: HTTPServerRequest, of session: Session) -> Bool {
    guard let header = request.headers[DemoAPI.csrfHeader],
      header == request.cookies[DemoAPI.csrfCookie]
    else { return false }
    let now = rotation.now()
    return state.withValue { state in
      forgetExpired(of: session.handle, at: now, in: &state)
      return state.sessions[session.handle]?.issued.contains { $0.csrf == header } ?? false
    }
  }

  /// The values an answer to session `handle` sets: new ones when the newest are at least
  /// ``CookieRotation/interval`` old, none otherwise (and none when the session ended).
  func rotate(_ handle: String) -> Issued? {
    let now = rotation.now()
    let interval = rotation.interval / .seconds(1)
    return state.withValue { state -> Issued? in
      guard var session = state.sessions[handle], let newest = session.issued.last,
        now.timeIntervalSince(newest.issuedAt) >= interval
      else { return nil }
      let fresh = Self.fresh(at: now)
      session.issued[session.issued.count - 1].supersededAt = now
      session.issued.append(fresh)
      state.byCookie[fresh.session] = handle
      state.sessions[handle] = session
      forgetExpired(of: handle, at: now, in: &state)
      return fresh
    }
  }

  /// Ends session `handle`: none of its values is honoured from now on. Answers it if it
  /// existed.
  @discardableResult
  func end(_ handle: String) -> Session? {
    state.withValue { state in
      guard let session = state.sessions.removeValue(forKey: handle) else { return nil }
      for issued in session.issued { state.byCookie[issued.session] = nil }
      return session
    }
  }

  /// Drops the values of `handle` superseded more than the grace ago, and the oldest beyond
  /// ``CookieRotation/maximumHonoured``. O(values of the session).
  private func forgetExpired(of handle: String, at now: Date, in state: inout State) {
    guard var session = state.sessions[handle] else { return }
    let grace = rotation.grace / .seconds(1)
    let expired = session.issued.prefix { issued in
      guard let supersededAt = issued.supersededAt else { return false }
      return now.timeIntervalSince(supersededAt) > grace
    }.count
    let excess = max(0, session.issued.count - expired - CookieRotation.maximumHonoured)
    let dropped = session.issued.prefix(expired + excess)
    guard !dropped.isEmpty else { return }
    for issued in dropped { state.byCookie[issued.session] = nil }
    session.issued.removeFirst(dropped.count)
    state.sessions[handle] = session
  }

  private static func fresh(at now: Date) -> Issued {
    Issued(
      session: PKCE.randomToken(byteCount: 24), csrf: PKCE.randomToken(byteCount: 18),
      issuedAt: now, supersededAt: nil)
  }
}
