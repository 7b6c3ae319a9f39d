import DemoHTTPProtocol
import Foundation
import Testing
import WorkspaceHTTP

/// The PKCE sign-in door: an authorization request shows a login form, the form's answer
/// redirects to the app's loopback URI with a code, and only the verifier redeems the code,
/// once.
@Suite("Demo server: the sign-in door")
struct SignInDoorTests {
  @Test("The door's flow ends with HttpOnly session and csrf cookies and the account")
  func signIn() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let session = server.session()
    let pkce = PKCE()
    let redirect = URL(string: "http://127.0.0.1:9/callback")!
    let code = try await server.authorize(
      session, pkce: pkce, redirect: redirect, "ada", "lovelace")
    let answer = try await session.send(
      .authorizationCodeExchange(
        PKCEExchange(code: code, verifier: pkce.verifier, redirectURI: redirect),
        path: DemoAPI.token))
    #expect(answer.status == 200)
    let me = try answer.decode(DemoAPI.Me.self)
    #expect(me.username == "ada" && me.mayAuthor && me.lastEventID == "0")
    let cookie = try #require(answer.setCookie(DemoAPI.sessionCookie))
    #expect(cookie.contains("HttpOnly"))
    #expect(answer.setCookie(DemoAPI.csrfCookie) != nil)
    #expect(answer.headers["Cache-Control"] == "no-store")
    // The system's own session token never reaches the client.
    #expect(!answer.text.contains("session-1"))
    #expect(!(answer.headers["Set-Cookie"] ?? "").contains("session-1"))

    // A code is spent by its redemption.
    let again = try await session.send(
      .authorizationCodeExchange(
        PKCEExchange(code: code, verifier: pkce.verifier, redirectURI: redirect),
        path: DemoAPI.token))
    #expect(again.status == 400)
    #expect(again.problem?.code == .invalidRequest)
  }

  @Test("A code redeemed with another verifier is refused, and spent")
  func wrongVerifier() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let session = server.session()
    let pkce = PKCE()
    let redirect = URL(string: "http://127.0.0.1:9/callback")!
    let code = try await server.authorize(
      session, pkce: pkce, redirect: redirect, "ada", "lovelace")
    for verifier in [PKCE().verifier, pkce.verifier] {
      let answer = try await session.send(
        .authorizationCodeExchange(
          PKCEExchange(code: code, verifier: verifier, redirectURI: redirect), path: DemoAPI.token))
      #expect(answer.status == 400, "a code is redeemable once, with its own verifier only")
      #expect(answer.setCookie(DemoAPI.sessionCookie) == nil)
    }
  }

  @Test(
    "Guesses spread over fresh logins are counted per account: then even the right password waits")
  func guessingIsLimitedPerAccount() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let session = server.session()
    let pkce = PKCE()
    let redirect = URL(string: "http://127.0.0.1:9/callback")!
    var refusedAsGuessing = 0
    for guess in 0..<30 {
      // A fresh pending login every two guesses: the per-login limit never applies.
      let login = try await server.openLogin(session, pkce: pkce, redirect: redirect, state: "s")
      for attempt in 0..<2 {
        let answer = try await session.send(
          server.loginForm(login, "ada", "guess-\(guess)-\(attempt)", json: true))
        if answer.status == 429 { refusedAsGuessing += 1 } else { #expect(answer.status == 401) }
      }
    }
    #expect(refusedAsGuessing == 60 - 10)
    let login = try await server.openLogin(session, pkce: pkce, redirect: redirect, state: "s")
    let right = try await session.send(server.loginForm(login, "ada", "lovelace", json: true))
    #expect(right.status == 429, "the right password got in after 60 guesses: \(right.status)")
    #expect(right.headers["Retry-After"] != nil)
    #expect(right.text.contains("too many wrong passwords"))
    // Another account is not affected.
    let code = try await server.authorize(
      session, pkce: pkce, redirect: redirect, "grace", "hopper")
    #expect(!code.isEmpty)
  }

  @Test("A wrong password answers 401 and the form again; a problem document for JSON clients")
  func wrongPassword() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let session = server.session()
    let redirect = URL(string: "http://127.0.0.1:9/callback")!
    let login = try await server.openLogin(session, pkce: PKCE(), redirect: redirect, state: "s")
    let page = try await session.send(server.loginForm(login, "ada", "wrong"))
    #expect(page.status == 401)
    #expect(page.text.contains("Wrong username or password."))
    #expect(!page.text.contains("wrong\""), "the password is not echoed")
    let json = try await session.send(server.loginForm(login, "nobody", "x", json: true))
    #expect(json.status == 401)
    #expect(json.problem?.code == .badCredentials)
    #expect(json.problem?.detail == "wrong username or password", "no hint which one was wrong")
    // The same pending login still works with the right password.
    let right = try await session.send(server.loginForm(login, "ada", "lovelace"))
    #expect(right.status == 302)
  }

  @Test("An authorization request without S256, a state, or a loopback redirect is refused")
  func invalidAuthorization() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let session = server.session()
    let cases: [[URLQueryItem]] = [
      [],
      [
        URLQueryItem(name: "response_type", value: "code"),
        URLQueryItem(name: "redirect_uri", value: "http://127.0.0.1:9/cb"),
        URLQueryItem(name: "code_challenge", value: "x"),
        URLQueryItem(name: "code_challenge_method", value: "plain"),
        URLQueryItem(name: "state", value: "s"),
      ],
      [
        URLQueryItem(name: "response_type", value: "code"),
        URLQueryItem(name: "redirect_uri", value: "https://evil.example/cb"),
        URLQueryItem(name: "code_challenge", value: "x"),
        URLQueryItem(name: "code_challenge_method", value: "S256"),
        URLQueryItem(name: "state", value: "s"),
      ],
    ]
    for query in cases {
      let answer = try await session.send(.get(DemoAPI.authorize, query: query, access: .public))
      #expect(answer.status == 400)
      #expect(answer.problem?.code == .invalidRequest)
    }
    let unknown = try await session.send(server.loginForm("forged", "ada", "lovelace"))
    #expect(unknown.status == 400, "a login form the door never showed is refused")
  }
}
