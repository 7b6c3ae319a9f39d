import DemoHTTPProtocol
import Foundation
import WorkspaceHTTP

/// What a browser would do at the demo server's sign-in door, done over HTTP by the backend
/// itself: demo-cli has no browser. It opens the authorization URL, fills the login form with
/// the username and password, and follows the door's redirect to the app's loopback listener.
///
/// It runs in a session of its own (the browser's cookies are not the app's), and follows the
/// redirect only to the sign-in's own redirect URI. The password goes only into the form's
/// body; no log line or error carries it.
struct BrowserLogin {
  let server: URL
  let configuration: HTTPBackendConfiguration

  /// Completes the sign-in `signIn` started: afterwards its listener holds the code.
  func complete(_ signIn: PKCESignIn, username: String, password: String) async throws {
    let browser = HTTPSession(
      baseURL: server,
      configuration: HTTPSessionConfiguration(
        timeout: configuration.timeout, logger: configuration.logger))
    let authorization = signIn.authorizationURL(server.appendingPathComponent(DemoAPI.authorize))
    let page = try await browser.send(
      .get(DemoAPI.authorize, query: Self.query(of: authorization), access: .public))
    guard page.isSuccess else {
      throw DemoServerError(request: "GET \(DemoAPI.authorize)", response: page)
    }
    guard let login = Self.hiddenField(DemoAPI.loginField, in: page.text) else {
      throw SignInError.noLoginForm
    }
    var post = HTTPRequest.post(
      DemoAPI.login,
      body: .form([
        HTTPBody.FormField(DemoAPI.loginField, login),
        HTTPBody.FormField("username", username),
        HTTPBody.FormField("password", password),
      ]), access: .public)
    post.headers["Accept"] = "application/json"
    let answer = try await browser.send(post)
    guard answer.status == 302 || answer.status == 303 else {
      throw DemoServerError(request: post.summary, response: answer)
    }
    guard let location = answer.headers["Location"].flatMap(URL.init(string:)),
      Self.sameEndpoint(location, signIn.redirectURI)
    else { throw SignInError.foreignRedirect }
    // The browser's return to the app: the listener accepts only this sign-in's state.
    let listener = HTTPSession(
      baseURL: Self.origin(of: location),
      configuration: HTTPSessionConfiguration(timeout: configuration.timeout))
    let returned = try await listener.send(
      .get(signIn.redirectURI.path, query: Self.query(of: location), access: .public))
    guard returned.isSuccess else { throw SignInError.returnRefused(status: returned.status) }
  }

  /// Why the door could not be passed (besides what the server refused).
  enum SignInError: Error, Equatable, CustomStringConvertible {
    case noLoginForm
    case foreignRedirect
    case returnRefused(status: Int)

    var description: String {
      switch self {
      case .noLoginForm: "the sign-in door showed no login form"
      case .foreignRedirect: "the sign-in door redirected somewhere other than this app"
      case .returnRefused(let status): "the app's sign-in listener refused the return (\(status))"
      }
    }
  }

  static func query(of url: URL) -> [URLQueryItem] {
    URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
  }

  /// The value of `<input type="hidden" name="NAME" value="…">` in `html`.
  static func hiddenField(_ name: String, in html: String) -> String? {
    guard let input = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
    let rest = html[input.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end])
  }

  private static func sameEndpoint(_ a: URL, _ b: URL) -> Bool {
    a.scheme == b.scheme && a.host == b.host && a.port == b.port && a.path == b.path
  }

  private static func origin(of url: URL) -> URL {
    var components = URLComponents()
    components.scheme = url.scheme
    components.host = url.host
    components.port = url.port
    return components.url ?? url
  }
}
