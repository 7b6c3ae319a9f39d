import Foundation

/// One PKCE sign-in (RFC 7636) through the system browser and a loopback redirect: a fresh
/// verifier and `state` nonce, a ``LoopbackRedirectListener`` that accepts only this
/// sign-in's return, then the code exchange with the verifier through the ``HTTPSession``.
///
/// ```swift
/// let signIn = try PKCESignIn()
/// let url = signIn.authorizationURL(server.appendingPathComponent("authorize"), clientID: "app")
/// try await openInBrowser(url)
/// let code = try await signIn.waitForCode(timeout: .seconds(300))
/// try await signIn.exchange(code, through: session) {
///   .authorizationCodeExchange($0, path: "/token", clientID: "app")
/// }
/// session.status   // .signedIn
/// ```
///
/// Its description shows neither the verifier nor the state.
public struct PKCESignIn: Sendable, CustomStringConvertible {
  /// This sign-in's verifier and challenge.
  public let pkce: PKCE
  /// The nonce the browser's return must carry. Never log it.
  public let state: String
  /// The one-shot listener the browser returns to.
  public let listener: LoopbackRedirectListener

  /// Makes a verifier and a state, and opens the listener at `callbackPath`.
  public init(callbackPath: String = "/callback") throws {
    pkce = PKCE()
    state = PKCE.randomToken(byteCount: 16)
    listener = try LoopbackRedirectListener(state: state, path: callbackPath)
  }

  /// Where the browser returns: `http://127.0.0.1:<port>/callback`.
  public var redirectURI: URL { listener.redirectURI }

  /// `endpoint` with the OAuth parameters of this sign-in: `response_type=code`, `client_id`
  /// (when given), `redirect_uri`, `code_challenge`, `code_challenge_method=S256`, `state`,
  /// then `extra`.
  public func authorizationURL(
    _ endpoint: URL, clientID: String? = nil, extra: [URLQueryItem] = []
  ) -> URL {
    guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true) else {
      return endpoint
    }
    var items = components.queryItems ?? []
    items.append(URLQueryItem(name: "response_type", value: "code"))
    if let clientID { items.append(URLQueryItem(name: "client_id", value: clientID)) }
    items += [
      URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
      URLQueryItem(name: "code_challenge", value: pkce.challenge),
      URLQueryItem(name: "code_challenge_method", value: pkce.challengeMethod),
      URLQueryItem(name: "state", value: state),
    ]
    components.queryItems = items + extra
    return components.url ?? endpoint
  }

  /// Waits (on the `\.clock` dependency) for the browser's return with this sign-in's state
  /// and answers its `parameter` (`code` for OAuth; some servers name it `ticket`).
  public func waitForCode(parameter: String = "code", timeout: Duration = .seconds(300))
    async throws -> String
  {
    let query = try await listener.waitForReturn(timeout: timeout)
    guard let code = query[parameter], !code.isEmpty else {
      throw PKCESignInError.missingCode(parameter: parameter)
    }
    return code
  }

  /// Sends the exchange `request` makes from `code` and the verifier through `session`, as a
  /// public call (its cookies land in the session's jar). A 2xx begins the session; any other
  /// status throws ``PKCESignInError/exchangeRefused(status:)``.
  @discardableResult
  public func exchange(
    _ code: String, through session: HTTPSession,
    request: (PKCEExchange) -> HTTPRequest
  ) async throws -> HTTPResponse {
    var exchange = request(
      PKCEExchange(code: code, verifier: pkce.verifier, redirectURI: redirectURI))
    exchange.access = .public
    let response = try await session.send(exchange)
    guard response.isSuccess else { throw PKCESignInError.exchangeRefused(status: response.status) }
    session.beginSession()
    return response
  }

  /// Closes the listener (a sign-in the user abandoned).
  public func cancel() async {
    await listener.close()
  }

  public var description: String { "PKCESignIn(redirect \(redirectURI), S256)" }
}

/// What a code exchange is made from. Its description redacts the code and the verifier.
public struct PKCEExchange: Sendable, CustomStringConvertible {
  /// The code (or ticket) the browser returned. Never log it.
  public let code: String
  /// The sign-in's PKCE verifier. Never log it.
  public let verifier: String
  /// The redirect URI the code was issued for.
  public let redirectURI: URL

  public init(code: String, verifier: String, redirectURI: URL) {
    self.code = code
    self.verifier = verifier
    self.redirectURI = redirectURI
  }

  public var description: String { "PKCEExchange(redirect \(redirectURI), code <redacted>)" }
}

extension HTTPRequest {
  /// The OAuth 2.0 authorization-code exchange with PKCE (RFC 6749 §4.1.3, RFC 7636 §4.5): a
  /// form `POST` of `grant_type`, `code`, `redirect_uri`, `code_verifier` and `client_id`.
  public static func authorizationCodeExchange(
    _ exchange: PKCEExchange, path: String, clientID: String? = nil
  ) -> HTTPRequest {
    var fields = [
      HTTPBody.FormField("grant_type", "authorization_code"),
      HTTPBody.FormField("code", exchange.code),
      HTTPBody.FormField("redirect_uri", exchange.redirectURI.absoluteString),
      HTTPBody.FormField("code_verifier", exchange.verifier),
    ]
    if let clientID { fields.append(HTTPBody.FormField("client_id", clientID)) }
    return HTTPRequest(method: .post, path: path, body: .form(fields), access: .public)
  }
}

/// Why a PKCE sign-in did not complete. Messages never name the code, verifier or state.
public enum PKCESignInError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No return with this sign-in's state came in time.
  case timedOut(after: Duration)
  /// The authorization server returned an `error` (e.g. `access_denied`).
  case denied(error: String)
  /// The return carried no such parameter.
  case missingCode(parameter: String)
  /// The code exchange answered this status.
  case exchangeRefused(status: Int)
  /// The loopback listener could not be opened.
  case listenerFailed(String)

  public var description: String {
    switch self {
    case .timedOut(let after): "The sign-in did not return within \(after.formattedSeconds)."
    case .denied(let error): "The sign-in was not granted (\(error))."
    case .missingCode(let parameter): "The sign-in returned without a \(parameter)."
    case .exchangeRefused(let status): "The sign-in's code exchange was refused (\(status))."
    case .listenerFailed(let reason): "Cannot listen for the sign-in's return: \(reason)."
    }
  }
}
