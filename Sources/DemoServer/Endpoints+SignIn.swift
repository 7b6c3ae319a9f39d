import DemoHTTPProtocol
import Foundation
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// The sign-in door, the session's account, sign-out.
extension Endpoints {
  /// `GET /v1/auth/authorize`: the login form for a valid PKCE authorization request.
  func authorize(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    guard let login = door.open(request) else {
      return .problem(
        400, .invalidRequest, "Invalid authorization request",
        "an authorization request needs response_type=code, an S256 code_challenge, a state "
          + "and a loopback http redirect_uri")
    }
    return LoginDoor.page(login: login)
  }

  /// `POST /v1/auth/login`: checks the password; a 302 back to the app with a code, or the
  /// form again (401) — as a problem document when the client accepts JSON.
  func login(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    let form = request.formFields
    guard let login = form[DemoAPI.loginField], door.find(login) != nil else {
      return .problem(
        400, .invalidRequest, "Unknown sign-in",
        "this sign-in is unknown or expired; start it again from the app")
    }
    let username = form["username"] ?? ""
    if let until = door.lockedOut(username) {
      let minutes = max(1, Int((until.timeIntervalSinceNow / 60).rounded(.up)))
      var refusal = HTTPServerResponse.problem(
        429, .other, "Too many wrong passwords",
        "too many wrong passwords for this account; try again in \(minutes) minutes")
      refusal.headers["Retry-After"] = "\(minutes * 60)"
      return refusal
    }
    do throws(DemoError) {
      let session = try await system.signIn(
        username: username, password: form["password"] ?? "")
      guard let redirect = door.complete(login, granting: session) else {
        try await system.signOut(token: session.token)
        return .problem(400, .invalidRequest, "Sign-in spent", "this sign-in was already used")
      }
      return redirect
    } catch {
      door.fail(login)
      switch error {
      case .unknownAccount, .wrongPassword: door.failAccount(username)
      default: break
      }
      let refusal = Self.refusal(error)
      let wantsJSON = request.headers["Accept"]?.contains("json") ?? false
      return wantsJSON
        ? refusal
        : LoginDoor.page(login: login, message: "Wrong username or password.", status: 401)
    }
  }

  /// `POST /v1/auth/token`: redeems a code with its verifier; the session's cookies and
  /// ``DemoAPI/Me``.
  func token(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    guard let demo = door.authorizations.redeem(request),
      let account = try? await system.account(token: demo.token)
    else {
      return .problem(
        400, .invalidRequest, "Invalid grant",
        "the code is unknown, spent, or does not match the verifier or redirect URI")
    }
    let (session, issued) = sessions.begin(demo)
    var response = HTTPServerResponse.encoded(me(account, session: session))
    response.headers["Cache-Control"] = "no-store"
    for cookie in issued.cookies { response.setCookie(cookie) }
    return response
  }

  /// `GET /v1/me`.
  func me(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      .encoded(me(caller.account, session: caller.session))
    }
  }

  /// `POST /v1/auth/logout`: ends the session (and the system's session behind it); answers
  /// 204 with both cookies deleted, also when there was no session.
  func logout(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    if sessions.session(for: request) != nil {
      let ended = await asSession(request) { caller in
        sessions.end(caller.session.handle)
        do throws(DemoError) {
          try await system.signOut(token: caller.session.token)
          return .status(204)
        } catch {
          return Self.refusal(error)
        }
      }
      // A live session's sign-out needs its CSRF proof, like any mutation.
      if ended.status == 403 { return ended }
    }
    var response = HTTPServerResponse.status(204)
    response.setCookie(.deletion(of: DemoAPI.sessionCookie))
    response.setCookie(.deletion(of: DemoAPI.csrfCookie))
    return response
  }

  private func me(_ account: DemoAccount, session: CookieSessions.Session) -> DemoAPI.Me {
    DemoAPI.Me(
      username: account.username, displayName: account.displayName,
      mayAuthor: account.mayAuthor, session: session.handle,
      lastEventID: String(announcements.lastID))
  }
}
