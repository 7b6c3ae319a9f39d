import ComposableWorkspace
import DemoBackendInterface
import DemoHTTPProtocol
import Foundation
import WorkspaceDemoFeature
import WorkspaceHTTP

/// The demo on a demo server over HTTP (`demo-cli serve`, module `DemoServer`): sign-in at
/// its PKCE door, admission, the catalogue, proposals and the reviewer's merge all on the
/// server, through one ``HTTPSession`` (its own in-memory cookie jar, the csrf cookie echoed
/// as `X-CSRF-Token` on every mutation, a 401 ending the session once). The working copy is
/// local, kept in memory like the in-memory client's; the live channel follows the server's
/// announcements.
///
/// ```swift
/// let backend = HTTPBackend(server: URL(string: "http://127.0.0.1:8080")!)
/// let clients = backend.clients(credentials: credentials, workingCopies: [])
/// // clients.application (sign-in, admission, workspace, catalogue), clients.live
/// ```
///
/// Sessions are cookies, never written anywhere: a state file reopened with this backend
/// starts signed out (``keepsSessionsAcrossRuns`` is `false`). Everything is the server's: no
/// in-memory system is kept (``system`` is `nil`).
public struct HTTPBackend: DemoBackend {
  /// The server's base URL.
  public let server: URL
  public let configuration: HTTPBackendConfiguration
  /// The session its clients share, when the host gave one (to share it with clients of its
  /// own, such as a SQLite workspace on the same server); else each ``clients(credentials:workingCopies:)``
  /// makes one.
  public let session: HTTPSession?

  public init(
    server: URL, configuration: HTTPBackendConfiguration = HTTPBackendConfiguration(),
    session: HTTPSession? = nil
  ) {
    self.server = server
    self.configuration = configuration
    self.session = session
  }

  /// A session on ``server`` as the backend's clients use one: its own cookie jar, the csrf
  /// cookie echoed as `X-CSRF-Token`, the configured timeout and logger.
  public func makeSession() -> HTTPSession {
    HTTPSession(
      baseURL: server,
      configuration: HTTPSessionConfiguration(
        csrf: .echoCookie(DemoAPI.csrfCookie, asHeader: DemoAPI.csrfHeader),
        timeout: configuration.timeout, headers: ["Accept": "application/json"],
        logger: configuration.logger))
  }

  public var remote: String? { server.absoluteString }

  public var name: String { "http" }

  public var placeDescription: String { "the demo server \(server.absoluteString)" }

  public var keepsSessionsAcrossRuns: Bool { false }

  public var system: DemoSystem? { nil }

  public func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients {
    let session = self.session ?? makeSession()
    let connection = DemoServerConnection(session: session, configuration: configuration)
    let copies = DemoWorkingCopies(workingCopies)
    let live = LiveFollower(session: session, configuration: configuration)
    let catalogue = HTTPCatalogue(server: connection)
    return DemoBackendClients(
      application: DemoClients(
        credentials: credentials,
        auth: .http(
          session: session, configuration: configuration, credentials: credentials, live: live),
        authoring: .http(server: connection, credentials: credentials),
        workspace: .http(
          server: connection, capability: credentials.capability, workingCopies: copies),
        catalogue: catalogue.client,
        localData: .demo(workingCopies: copies)),
      reader: catalogue, live: live)
  }
}
