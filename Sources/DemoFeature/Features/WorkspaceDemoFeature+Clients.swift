import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

extension WorkspaceDemoFeature {
  /// The live feature graph with the demo's accounts, sessions and admission on `system`, and
  /// the catalogue and the workspace of another backend (a Git remote, say): the same
  /// composition as ``live(system:credentials:workingCopies:)``, with two clients swapped.
  ///
  /// ```swift
  /// WorkspaceDemoFeature.live(
  ///   system: system, credentials: credentials,
  ///   workspace: gitBackedWorkspace, catalogue: gitBackedCatalogue
  /// )
  /// ```
  public static func live(
    system: DemoSystem,
    credentials: DemoCredentials,
    workspace: DemoWorkspaceClient,
    catalogue: CatalogueClient
  ) -> some Reducer<State, Action> {
    WorkspaceDemoFeature()
      .dependency(AuthClient.demo(system: system, credentials: credentials))
      .dependency(AuthoringClient.demo(system: system, credentials: credentials))
      .dependency(workspace)
      .dependency(catalogue)
  }
}

/// Builds the demo application's store with the workspace and catalogue of another backend;
/// accounts, sessions and admission stay on `system`. See
/// ``WorkspaceDemoFeature/live(system:credentials:workspace:catalogue:)``.
@MainActor
public func makeWorkspaceDemoStore(
  system: DemoSystem,
  credentials: DemoCredentials,
  workspace: DemoWorkspaceClient,
  catalogue: CatalogueClient,
  initialState: WorkspaceDemoFeature.State = WorkspaceDemoFeature.State()
) -> Store<WorkspaceDemoFeature.State, WorkspaceDemoFeature.Action> {
  Store(initialState: initialState) {
    WorkspaceDemoFeature.live(
      system: system, credentials: credentials, workspace: workspace, catalogue: catalogue)
  }
}
