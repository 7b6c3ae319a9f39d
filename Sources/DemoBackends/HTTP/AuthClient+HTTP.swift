import DemoHTTPProtocol
import Foundation
import WorkspaceDemoFeature
import WorkspaceHTTP

extension AuthClient {
  /// Application authentication at the demo server's PKCE door (RFC 7636, S256).
  ///
  /// **Sign-in** opens a one-shot listener on 127.0.0.1 for this sign-in's return, then does
  /// what a browser would: demo-cli has none, so ``BrowserLogin`` opens the door's
  /// authorization URL, fills its login form with the username and password, and follows the
  /// redirect back to the listener. The code that returns is exchanged with the verifier
  /// through `session`, whose jar receives the session and csrf cookies; the previous session,
  /// if any, is signed out first. The session is begun only once the server said whose it is
  /// (`/v1/me`'s shape), and the live channel resumes from that moment.
  ///
  /// **Sign-out** tells the server (`POST /v1/auth/logout`) and empties the jar, whatever it
  /// answered.
  ///
  /// The ``DemoSession`` it answers names the account and a public handle of the session,
  /// never a cookie value: the cookies stay in `session`'s memory.
  static func http(
    session: HTTPSession, configuration: HTTPBackendConfiguration,
    credentials: DemoCredentials, live: LiveFollower
  ) -> AuthClient {
    let logout = HTTPRequest(method: .post, path: DemoAPI.logout)
    return AuthClient(
      signIn: { username, password in
        let signIn = try PKCESignIn()
        do {
          try await BrowserLogin(server: session.baseURL, configuration: configuration)
            .complete(signIn, username: username, password: password)
        } catch {
          await signIn.cancel()
          throw error
        }
        let code = try await signIn.waitForCode(timeout: configuration.signInTimeout)
        if session.status.isSignedIn { try? await session.signOut(notifying: logout) }
        let exchange = HTTPRequest.authorizationCodeExchange(
          PKCEExchange(code: code, verifier: signIn.pkce.verifier, redirectURI: signIn.redirectURI),
          path: DemoAPI.token)
        let answer = try await session.send(exchange)
        guard answer.isSuccess else {
          session.endSession()
          throw DemoServerError(request: exchange.summary, response: answer)
        }
        guard let me = try? answer.decode(DemoAPI.Me.self) else {
          session.endSession()
          throw DemoServerAnswerUnreadable(request: exchange.summary)
        }
        live.resume(after: me.lastEventID)
        session.beginSession()
        // The server's handle and a local nonce: one session is never taken for the next,
        // even when a restarted server hands out the same handle again.
        let demo = DemoSession(
          token: "\(me.session)-\(PKCE.randomToken(byteCount: 6))", username: me.username)
        credentials.update { $0.session = demo }
        return demo
      },
      signOut: {
        credentials.update { $0.session = nil }
        guard session.status.isSignedIn else {
          session.endSession()
          return
        }
        try? await session.signOut(notifying: logout)
      }
    )
  }
}
