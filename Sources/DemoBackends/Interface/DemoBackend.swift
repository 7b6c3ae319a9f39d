import ComposableWorkspace
import WorkspaceDemoFeature

/// Where the demo's catalogue, proposals and workspace live: the in-memory system
/// (``MemoryBackend``) or a live one (a Git remote, say), each in its own module under
/// `Sources/DemoBackends/<Backend>`. Accounts, sessions and admission always stay on the
/// in-memory `DemoSystem`.
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
  /// Where the catalogue lives, as the state file records it and people are told it; `nil`
  /// for the in-memory system (whose catalogue is saved with the system itself).
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

  public init(
    workspace: DemoWorkspaceClient, catalogue: CatalogueClient,
    localData: LocalWorkspaceDataClient, reader: any CatalogueReader
  ) {
    self.workspace = workspace
    self.catalogue = catalogue
    self.localData = localData
    self.reader = reader
  }
}
