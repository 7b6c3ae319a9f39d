import ComposableCore
import ComposableWorkspace

/// The application's own operation on a workspace's local data: removing it.
///
/// The spec leaves removing local workspace data to the integrating application: Workspace
/// keeps a ready session through grant loss and never deletes anything. The demo removes a
/// copy with ``WorkspaceDemoFeature/Action/forgetWorkspace``, which resets the workspace to
/// `inactive` and then calls ``remove``.
public struct LocalWorkspaceDataClient: DependencyKey, Sendable {
  /// Deletes everything kept locally for workspace `id` (its working copy, its recorded
  /// baseline). Removing a workspace that has no local data does nothing.
  public var remove: @Sendable (_ id: WorkspaceID) async throws -> Void

  public init(remove: @escaping @Sendable (WorkspaceID) async throws -> Void) {
    self.remove = remove
  }

  public static var liveValue: LocalWorkspaceDataClient { unimplementedClient }
  public static var testValue: LocalWorkspaceDataClient { unimplementedClient }

  private static var unimplementedClient: LocalWorkspaceDataClient {
    LocalWorkspaceDataClient(remove: unimplemented("LocalWorkspaceDataClient.remove"))
  }

  /// Removes the in-memory client's copies.
  public static func demo(workingCopies: DemoWorkingCopies) -> LocalWorkspaceDataClient {
    LocalWorkspaceDataClient(remove: { id in workingCopies.remove(id) })
  }
}
