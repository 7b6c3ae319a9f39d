import ComposableCore
import Foundation
import HTTPMessages

/// The server side of a PKCE authorization-code flow (RFC 6749 §4.1, RFC 7636 §4.4–4.6):
/// codes issued for an S256 challenge and a redirect URI, each redeemable once, only with the
/// verifier that matches the challenge.
///
/// ```swift
/// let authorizations = PKCEAuthorizations<String>()
/// router.get("/authorize") { request in
///   authorizations.authorize(request, granting: "ada")   // 302 to redirect_uri?code=…&state=…
/// }
/// router.post("/token") { request in
///   guard let user = authorizations.redeem(request) else { return .status(400) }
///   var response = HTTPServerResponse.json(#"{"ok":true}"#)
///   response.setCookie(SetCookie(name: "session", value: newSession(for: user), httpOnly: true))
///   return response
/// }
/// ```
///
/// Who the grant is for is the caller's decision (a reference server may grant a fixed
/// account; a real one asks the person first). A code lives `codeLifetime` (RFC 6749 §4.1.2
/// asks for at most ten minutes); expired ones are dropped, and at most `maximumOutstanding`
/// wait at once (the oldest goes first), so unredeemed codes never pile up.
public final class PKCEAuthorizations<Grant: Sendable>: Sendable {
  private struct Issued {
    let challenge: String
    let redirectURI: String
    let grant: Grant
    let expires: Date
  }

  private let issued = LockIsolated<[String: Issued]>([:])
  private let codeLifetime: TimeInterval
  private let maximumOutstanding: Int
  private let now: @Sendable () -> Date

  /// - Parameters:
  ///   - codeLifetime: how long a code may wait for its redemption (clamped to 1 s…10 min).
  ///   - maximumOutstanding: how many codes may wait at once.
  ///   - now: the clock (injectable for tests).
  public init(
    codeLifetime: Duration = .seconds(60), maximumOutstanding: Int = 1_000,
    now: @escaping @Sendable () -> Date = Date.init
  ) {
    self.codeLifetime = min(max(codeLifetime.seconds, 1), 600)
    self.maximumOutstanding = max(1, maximumOutstanding)
    self.now = now
  }

  /// Answers an authorization request (`response_type=code`, `redirect_uri`,
  /// `code_challenge`, `code_challenge_method=S256`, `state`): a 302 back to `redirect_uri`
  /// with a new code for `grant` and the same `state`; 400 when a parameter is missing or the
  /// method is not S256, or the redirect is not a loopback `http` URI.
  public func authorize(_ request: HTTPServerRequest, granting grant: Grant) -> HTTPServerResponse {
    guard request.queryValue("response_type") == "code",
      request.queryValue("code_challenge_method") == "S256",
      let challenge = request.queryValue("code_challenge"), !challenge.isEmpty,
      let state = request.queryValue("state"),
      let redirect = request.queryValue("redirect_uri"),
      var components = URLComponents(string: redirect),
      components.scheme == "http", components.host == "127.0.0.1"
    else {
      return .json(#"{"error":"invalid_request"}"#, status: 400)
    }
    let code = PKCE.randomToken(byteCount: 24)
    let now = now()
    issued.withValue { issued in
      issued = issued.filter { $0.value.expires > now }
      if issued.count >= maximumOutstanding,
        let oldest = issued.min(by: { $0.value.expires < $1.value.expires })?.key
      {
        issued[oldest] = nil
      }
      issued[code] = Issued(
        challenge: challenge, redirectURI: redirect, grant: grant,
        expires: now.addingTimeInterval(codeLifetime))
    }
    components.queryItems =
      (components.queryItems ?? []) + [
        URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state),
      ]
    var response = HTTPServerResponse.status(302)
    response.headers["Location"] = components.string
    response.headers["Cache-Control"] = "no-store"
    return response
  }

  /// Redeems the code of a token request (a form with `code`, `code_verifier` and
  /// `redirect_uri`): its grant when the verifier matches the challenge and the redirect URI
  /// the one the code was issued for and the code has not expired, else `nil`. A code is
  /// spent by its first redemption, right or wrong.
  public func redeem(_ request: HTTPServerRequest) -> Grant? {
    let form = request.formFields
    guard let code = form["code"], let verifier = form["code_verifier"],
      let issued = issued.withValue({ $0.removeValue(forKey: code) }),
      issued.expires > now(),
      form["redirect_uri"] == issued.redirectURI,
      (try? PKCE(verifier: verifier))?.challenge == issued.challenge
    else { return nil }
    return issued.grant
  }
}

extension Duration {
  /// The duration in seconds, as a `TimeInterval`.
  fileprivate var seconds: TimeInterval {
    let (whole, attoseconds) = components
    return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
  }
}
