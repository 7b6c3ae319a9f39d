import ComposableCore
import Foundation
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@Suite("PKCE authorizations (server side)")
struct PKCEAuthorizationsTests {
  private let pkce = PKCE()

  private func authorizeRequest(
    method: String = "S256", redirect: String = "http://127.0.0.1:9/callback",
    state: String? = "st"
  ) -> HTTPServerRequest {
    var items = [
      URLQueryItem(name: "response_type", value: "code"),
      URLQueryItem(name: "redirect_uri", value: redirect),
      URLQueryItem(name: "code_challenge", value: pkce.challenge),
      URLQueryItem(name: "code_challenge_method", value: method),
    ]
    if let state { items.append(URLQueryItem(name: "state", value: state)) }
    var components = URLComponents(string: "/authorize")
    components?.queryItems = items
    return HTTPServerRequest(method: .get, target: components?.string ?? "/authorize")
  }

  private func tokenRequest(code: String, verifier: String, redirect: String) -> HTTPServerRequest {
    let form = HTTPBody.form(["code": code, "code_verifier": verifier, "redirect_uri": redirect])
    guard case .form(let fields) = form else {
      return HTTPServerRequest(method: .post, target: "/")
    }
    let body = fields.map {
      "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
    }.joined(separator: "&")
    return HTTPServerRequest(method: .post, target: "/token", body: Data(body.utf8))
  }

  private func code(from response: HTTPServerResponse) throws -> String {
    let location = try #require(response.headers["Location"])
    let items = URLComponents(string: location)?.queryItems ?? []
    #expect(items.first { $0.name == "state" }?.value == "st")
    return try #require(items.first { $0.name == "code" }?.value)
  }

  @Test func aCodeIsRedeemedOnceWithTheMatchingVerifier() throws {
    let authorizations = PKCEAuthorizations<String>()
    let response = authorizations.authorize(authorizeRequest(), granting: "ada")
    #expect(response.status == 302)
    let code = try code(from: response)
    let redirect = "http://127.0.0.1:9/callback"
    #expect(
      authorizations.redeem(tokenRequest(code: code, verifier: pkce.verifier, redirect: redirect))
        == "ada")
    #expect(
      authorizations.redeem(tokenRequest(code: code, verifier: pkce.verifier, redirect: redirect))
        == nil)
  }

  @Test func aWrongVerifierOrRedirectGetsNothingAndSpendsTheCode() throws {
    let authorizations = PKCEAuthorizations<String>()
    let redirect = "http://127.0.0.1:9/callback"
    let first = try code(from: authorizations.authorize(authorizeRequest(), granting: "ada"))
    #expect(
      authorizations.redeem(
        tokenRequest(code: first, verifier: PKCE().verifier, redirect: redirect)) == nil)
    #expect(
      authorizations.redeem(tokenRequest(code: first, verifier: pkce.verifier, redirect: redirect))
        == nil)
    let second = try code(from: authorizations.authorize(authorizeRequest(), granting: "ada"))
    #expect(
      authorizations.redeem(
        tokenRequest(code: second, verifier: pkce.verifier, redirect: "http://127.0.0.1:9/other"))
        == nil)
  }

  @Test(arguments: [
    ("plain", "http://127.0.0.1:9/callback", "st"),
    ("S256", "https://evil.example/callback", "st"),
    ("S256", "http://127.0.0.1:9/callback", nil),
  ])
  func badAuthorizationRequestsAre400(method: String, redirect: String, state: String?) {
    let authorizations = PKCEAuthorizations<String>()
    let response = authorizations.authorize(
      authorizeRequest(method: method, redirect: redirect, state: state), granting: "ada")
    #expect(response.status == 400)
    #expect(response.headers["Location"] == nil)
  }

  @Test func aCodeExpiresAfterItsLifetimeAndUnredeemedOnesAreDropped() throws {
    let clock = LockIsolated(Date(timeIntervalSince1970: 1_000_000))
    let authorizations = PKCEAuthorizations<String>(
      codeLifetime: .seconds(60), maximumOutstanding: 3, now: { clock.current })
    let redirect = "http://127.0.0.1:9/callback"
    let late = try code(from: authorizations.authorize(authorizeRequest(), granting: "ada"))
    clock.withValue { $0 += 61 }
    #expect(
      authorizations.redeem(tokenRequest(code: late, verifier: pkce.verifier, redirect: redirect))
        == nil, "a code older than its lifetime")
    let inTime = try code(from: authorizations.authorize(authorizeRequest(), granting: "ada"))
    clock.withValue { $0 += 59 }
    #expect(
      authorizations.redeem(tokenRequest(code: inTime, verifier: pkce.verifier, redirect: redirect))
        == "ada")
    // At most three wait at once: a fourth pushes the oldest out.
    let codes = try (0..<4).map { _ in
      clock.withValue { $0 += 1 }
      return try code(from: authorizations.authorize(authorizeRequest(), granting: "ada"))
    }
    #expect(
      authorizations.redeem(
        tokenRequest(code: codes[0], verifier: pkce.verifier, redirect: redirect))
        == nil, "the oldest of four outstanding codes was dropped")
    #expect(
      authorizations.redeem(
        tokenRequest(code: codes[3], verifier: pkce.verifier, redirect: redirect))
        == "ada")
  }
}
