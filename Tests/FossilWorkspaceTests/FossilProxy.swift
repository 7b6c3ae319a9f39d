import ComposableCore
import Foundation
import LoopbackHTTPServer
import WorkspaceHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A loopback proxy in front of a fossil server, as a reverse proxy would be (the `Referer`
/// rewritten to the server's origin), where a test can act on one request: kill the server
/// before or after it reaches it, lose its answer, or answer garbage itself.
final class FossilProxy: Sendable {
  /// What to do with one request.
  struct Interception: Sendable {
    /// Runs before the request is forwarded (e.g. kill the server).
    var before: @Sendable () async -> Void = {}
    /// Whether the request reaches the server.
    var forward = true
    /// Runs once the server answered (e.g. kill it).
    var after: @Sendable () async -> Void = {}
    /// Whether the client gets no answer (the connection closes without a byte).
    var loseAnswer = false
    /// What the client gets instead of the server's answer (garbage, say).
    var replacement: HTTPServerResponse? = nil
  }

  private let server: LoopbackHTTPServer
  private let upstream: LockIsolated<URL>
  private let hook: LockIsolated<(@Sendable (HTTPServerRequest) -> Interception?)?>

  /// A proxy to `upstream`, listening on a free loopback port.
  init(upstream: URL) throws {
    let upstream = LockIsolated(upstream)
    let hook = LockIsolated<(@Sendable (HTTPServerRequest) -> Interception?)?>(nil)
    let session = URLSession(
      configuration: Self.configuration, delegate: RedirectsAnswered(), delegateQueue: nil)
    self.upstream = upstream
    self.hook = hook
    server = try LoopbackHTTPServer { request in
      let interception = hook.current?(request) ?? Interception()
      await interception.before()
      var response = HTTPServerResponse.closeWithoutAnswer
      if interception.forward {
        response = await Self.forward(request, to: upstream.current, with: session)
      }
      await interception.after()
      return interception.loseAnswer ? .closeWithoutAnswer : interception.replacement ?? response
    }
  }

  var baseURL: URL { server.baseURL }

  /// Sends later requests to `url` (a restarted server).
  func setUpstream(_ url: URL) { upstream.setValue(url) }

  /// Asks `decide` about every later request; `nil` forwards it as it is.
  func intercept(_ decide: @escaping @Sendable (HTTPServerRequest) -> Interception?) {
    hook.setValue(decide)
  }

  func stop() async { await server.stop() }

  private static var configuration: URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    configuration.timeoutIntervalForRequest = 10
    return configuration
  }

  private static func forward(
    _ request: HTTPServerRequest, to upstream: URL, with session: URLSession
  ) async -> HTTPServerResponse {
    guard let url = URL(string: upstream.absoluteString + request.target) else {
      return .status(502)
    }
    var forwarded = URLRequest(url: url)
    forwarded.httpMethod = request.method.rawValue
    for field in request.headers {
      switch field.name.lowercased() {
      case "host", "content-length", "connection": continue
      case "referer":
        forwarded.setValue(upstream.absoluteString + "/", forHTTPHeaderField: "Referer")
      default: forwarded.addValue(field.value, forHTTPHeaderField: field.name)
      }
    }
    if !request.body.isEmpty { forwarded.httpBody = request.body }
    guard let (data, answer) = try? await session.data(for: forwarded),
      let http = answer as? HTTPURLResponse
    else { return .closeWithoutAnswer }
    var headers = HTTPHeaders()
    for (name, value) in http.allHeaderFields {
      let name = String(describing: name)
      guard ["content-type", "set-cookie", "location"].contains(name.lowercased()) else { continue }
      headers.add(name, String(describing: value))
    }
    return HTTPServerResponse(status: http.statusCode, headers: headers, body: .bytes(data))
  }
}

/// A redirect is the server's answer, passed on to the client as it is (never followed).
private final class RedirectsAnswered: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
