import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

extension WorkspaceDemoFeature {
  /// The live feature graph with the demo's accounts, sessions and admission on `system`, and
  /// the catalogue, the workspace and the local data of another backend (a Git remote, say):
  /// the same composition as ``live(system:credentials:workingCopies:)``, with those clients
  /// swapped. Every client that needs the capability reads `credentials.capability`, the
  /// provider installed here for Authoring to publish into.
  ///
  /// ```swift
  /// WorkspaceDemoFeature.live(
  ///   system: system, credentials: credentials,
  ///   workspace: gitBackedWorkspace, catalogue: gitBackedCatalogue, localData: gitLocalData
  /// )
  /// ```
  public static func live(
    system: DemoSystem,
    credentials: DemoCredentials,
    workspace: DemoWorkspaceClient,
    catalogue: CatalogueClient,
    localData: LocalWorkspaceDataClient
  ) -> some Reducer<State, Action> {
    live(
      credentials: credentials,
      auth: AuthClient.demo(system: system, credentials: credentials),
      authoring: AuthoringClient.demo(system: system, credentials: credentials),
      workspace: workspace, catalogue: catalogue, localData: localData)
  }

  /// The live feature graph with every client given: for a backend that also signs people in
  /// and admits them (an HTTP server, say). Every client that needs the capability reads
  /// `credentials.capability`, the provider installed here for Authoring to publish into.
  public static func live(
    credentials: DemoCredentials,
    auth: AuthClient,
    authoring: AuthoringClient,
    workspace: DemoWorkspaceClient,
    catalogue: CatalogueClient,
    localData: LocalWorkspaceDataClient
  ) -> some Reducer<State, Action> {
    WorkspaceDemoFeature()
      .dependency(credentials.capability)
      .dependency(auth)
      .dependency(authoring)
      .dependency(workspace)
      .dependency(catalogue)
      .dependency(localData)
  }
}

/// Builds the demo application's store with the workspace, catalogue and local data of
/// another backend; accounts, sessions and admission stay on `system`. See
/// ``WorkspaceDemoFeature/live(system:credentials:workspace:catalogue:localData:)``.
@MainActor
public func makeWorkspaceDemoStore(
  system: DemoSystem,
  credentials: DemoCredentials,
  workspace: DemoWorkspaceClient,
  catalogue: CatalogueClient,
  localData: LocalWorkspaceDataClient,
  initialState: WorkspaceDemoFeature.State = WorkspaceDemoFeature.State()
) -> Store<WorkspaceDemoFeature.State, WorkspaceDemoFeature.Action> {
  makeWorkspaceDemoStore(
    credentials: credentials,
    auth: AuthClient.demo(system: system, credentials: credentials),
    authoring: AuthoringClient.demo(system: system, credentials: credentials),
    workspace: workspace, catalogue: catalogue, localData: localData, initialState: initialState)
}

/// Builds the demo application's store with every client given (see
/// ``WorkspaceDemoFeature/live(credentials:auth:authoring:workspace:catalogue:localData:)``).
@MainActor
public func makeWorkspaceDemoStore(
  credentials: DemoCredentials,
  auth: AuthClient,
  authoring: AuthoringClient,
  workspace: DemoWorkspaceClient,
  catalogue: CatalogueClient,
  localData: LocalWorkspaceDataClient,
  initialState: WorkspaceDemoFeature.State = WorkspaceDemoFeature.State()
) -> Store<WorkspaceDemoFeature.State, WorkspaceDemoFeature.Action> {
  Store(initialState: initialState) {
    WorkspaceDemoFeature.live(
      credentials: credentials, auth: auth, authoring: authoring, workspace: workspace,
      catalogue: catalogue, localData: localData)
  }
}
