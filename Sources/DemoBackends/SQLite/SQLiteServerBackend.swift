import ComposableAuthoring
import ComposableWorkspace
import DemoBackendInterface
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature
import WorkspaceHTTP

/// The demo with its working copy in a SQLite working database and everything else on a demo
/// server that keeps its data in SQLite (`demo-cli serve --database FILE`): sign-in, admission,
/// the catalogue, the live channel are `base`'s (the HTTP backend, on `session`); the workspace
/// is a ``/SQLiteWorkspace/SQLiteWorkspaceClient`` whose remote is the server's SQLite protocol
/// (``SQLiteServerRemote``, on the same signed-in `session`).
///
/// ```swift
/// let http = HTTPBackend(server: url)
/// let session = http.makeSession()
/// let backend = SQLiteServerBackend(
///   base: HTTPBackend(server: url, session: session), session: session, root: workspaces)
/// ```
public struct SQLiteServerBackend: DemoBackend {
  /// The backend of everything but the workspace (the HTTP backend).
  public let base: any DemoBackend
  /// The signed-in session `base` uses.
  public let session: HTTPSession
  /// Where the working databases are kept: one folder per workspace id.
  public let root: URL

  public init(base: any DemoBackend, session: HTTPSession, root: URL) {
    self.base = base
    self.session = session
    self.root = root
  }

  public var remote: String? { base.remote }
  public var system: DemoSystem? { base.system }
  public var name: String { "sqlite" }
  public var keepsSessionsAcrossRuns: Bool { base.keepsSessionsAcrossRuns }

  public var placeDescription: String {
    "\(base.placeDescription) (its SQLite protocol)"
  }

  public func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients {
    var clients = base.clients(credentials: credentials, workingCopies: workingCopies)
    let capability = credentials.capability
    let sqlite = SQLiteWorkspaceClient(
      remote: SQLiteServerRemote(session: session) { capability.current?.grant }, root: root,
      defaultBranch: SQLiteBackend.publishedBranch, capability: { capability.current })
    let working = SQLiteWorkingCopies(sqlite)
    clients.application.workspace = working.workspace
    clients.application.localData = working.localData
    clients.keepWorkingCopy = working.keep
    return clients
  }
}
