import ComposableAuthoring
import ComposableWorkspace
import WorkspaceDemoFeature

/// Where the demo's catalogue, proposals and workspace live: the in-memory system
/// (``MemoryBackend``) or a live one (a Git remote, a demo server over HTTP, a Fossil server),
/// each in its own module under `Sources/DemoBackends/<Backend>`. Accounts, sessions and
/// admission stay on the in-memory `DemoSystem` unless the backend brings its own clients for
/// them (``DemoBackendClients/auth``, ``DemoBackendClients/authoring``).
///
/// A host (demo-cli) picks one and builds the application's store over its clients:
///
/// ```swift
/// let clients = backend.clients(system: system, credentials: credentials, workingCopies: [])
/// let store = makeWorkspaceDemoStore(
///   system: system, credentials: credentials, workspace: clients.workspace,
///   catalogue: clients.catalogue, localData: clients.localData)
/// ```
public protocol DemoBackend: Sendable {
  /// Where the catalogue lives (a path or a URL), as the state file records it; `nil` for the
  /// in-memory system (whose catalogue is saved with the system itself).
  var remote: String? { get }

  /// The application's clients on this backend.
  ///
  /// - Parameter workingCopies: ready sessions restored from a state file, for a backend that
  ///   keeps working copies in memory (one that keeps them on disk reopens its own).
  func clients(
    system: DemoSystem,
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients

  /// The backend's short name, as `--backend` takes it and a state file records it
  /// (`memory`, `git`, `http`, `fossil`).
  var name: String { get }

  /// Where the demo runs, as people are told it: `an in-memory system`, `the Git remote
  /// PATH`, `the demo server URL`, `the Fossil server URL`.
  var placeDescription: String { get }

  /// Whether a session saved in a state file is still a session in the next run. `false` for
  /// a backend whose sessions live only in the process's memory (a server's cookies, which
  /// are never written to disk): a reopened state file then starts signed out. Default `true`.
  var keepsSessionsAcrossRuns: Bool { get }
}

extension DemoBackend {
  public var keepsSessionsAcrossRuns: Bool { true }
}

/// What a backend gives the application and its host.
public struct DemoBackendClients: Sendable {
  /// The application's workspace client.
  public var workspace: DemoWorkspaceClient
  /// The application's catalogue client (events, proposal listing, merge).
  public var catalogue: CatalogueClient
  /// Removing a workspace's local data (the application's `forget`).
  public var localData: LocalWorkspaceDataClient
  /// The host's own reads of the catalogue (markers, summaries, the reviewer's view).
  public var reader: any CatalogueReader
  /// Application authentication on this backend; `nil`: the in-memory system's.
  public var auth: AuthClient?
  /// Admission on this backend; `nil`: the in-memory system's.
  public var authoring: AuthoringClient?
  /// What the backend announces on its own between commands (a server's live channel, a
  /// watched branch head, the server ending the session); `nil` when it announces nothing.
  public var live: (any LiveChannel)?

  public init(
    workspace: DemoWorkspaceClient, catalogue: CatalogueClient,
    localData: LocalWorkspaceDataClient, reader: any CatalogueReader,
    auth: AuthClient? = nil, authoring: AuthoringClient? = nil, live: (any LiveChannel)? = nil
  ) {
    self.workspace = workspace
    self.catalogue = catalogue
    self.localData = localData
    self.reader = reader
    self.auth = auth
    self.authoring = authoring
    self.live = live
  }
}
