import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

/// Every client the demo application runs on, and the credentials they share: the one input of
/// the live feature graph (``WorkspaceDemoFeature/live(_:)``, ``makeWorkspaceDemoStore(_:initialState:)``).
///
/// ``inMemory(system:credentials:workingCopies:)`` puts everything on an in-memory
/// ``DemoSystem``; a live backend (a Git remote, a demo server, a Fossil server) fills in its
/// own clients. Every client that needs the capability reads `credentials.capability`, the
/// provider the graph installs for Authoring to publish into.
///
/// ```swift
/// let store = makeWorkspaceDemoStore(.inMemory(system: system))
/// var clients = DemoClients.inMemory(system: system, credentials: credentials)
/// clients.workspace = gitBackedWorkspace  // the catalogue, too, for a Git remote
/// ```
public struct DemoClients: Sendable {
  /// The device's credentials, and the capability provider every client reads.
  public var credentials: DemoCredentials
  /// Application authentication: sign-in and sign-out.
  public var auth: AuthClient
  /// Admission and grant validation.
  public var authoring: AuthoringClient
  /// The workspace: preparation, baseline, publication.
  public var workspace: DemoWorkspaceClient
  /// The catalogue: events, proposal listing, the reviewer's merge.
  public var catalogue: CatalogueClient
  /// Removing a workspace's local data (the application's own operation).
  public var localData: LocalWorkspaceDataClient

  public init(
    credentials: DemoCredentials, auth: AuthClient, authoring: AuthoringClient,
    workspace: DemoWorkspaceClient, catalogue: CatalogueClient,
    localData: LocalWorkspaceDataClient
  ) {
    self.credentials = credentials
    self.auth = auth
    self.authoring = authoring
    self.workspace = workspace
    self.catalogue = catalogue
    self.localData = localData
  }

  /// Every client on the in-memory `system`.
  ///
  /// - Parameter workingCopies: ready sessions restored from elsewhere (a state file): the
  ///   workspace client opens, refreshes and switches branches on them as they were saved.
  public static func inMemory(
    system: DemoSystem = DemoSystem(),
    credentials: DemoCredentials = DemoCredentials(),
    workingCopies: [WorkspaceSession<EventWorkingCopy>] = []
  ) -> Self {
    let copies = DemoWorkingCopies(workingCopies)
    return DemoClients(
      credentials: credentials,
      auth: .demo(system: system, credentials: credentials),
      authoring: .demo(system: system, credentials: credentials),
      workspace: .demo(system: system, credentials: credentials, workingCopies: copies),
      catalogue: .demo(system: system),
      localData: .demo(workingCopies: copies))
  }
}

extension WorkspaceDemoFeature {
  /// The live feature graph on `clients`, with `clients.credentials.capability` installed for
  /// Authoring to publish into.
  public static func live(_ clients: DemoClients) -> some Reducer<State, Action> {
    WorkspaceDemoFeature()
      .dependency(clients.credentials.capability)
      .dependency(clients.auth)
      .dependency(clients.authoring)
      .dependency(clients.workspace)
      .dependency(clients.catalogue)
      .dependency(clients.localData)
  }
}

/// Builds the demo application's store: the live feature graph on `clients` (by default,
/// everything on a fresh in-memory system). The application stories and `demo-cli` both use it.
///
/// ```swift
/// let store = makeWorkspaceDemoStore()
/// await store.send(.start).finish()
/// await store.send(.signIn(username: "ada", password: "lovelace")).finish()
/// ```
@MainActor
public func makeWorkspaceDemoStore(
  _ clients: DemoClients = .inMemory(),
  initialState: WorkspaceDemoFeature.State = WorkspaceDemoFeature.State()
) -> Store<WorkspaceDemoFeature.State, WorkspaceDemoFeature.Action> {
  Store(initialState: initialState) { WorkspaceDemoFeature.live(clients) }
}
