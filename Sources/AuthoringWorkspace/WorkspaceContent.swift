import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

/// A feature wrapped by ``AuthoringWorkspace``: it names the workspace's `Source` and
/// `ChangeSet`, keeps its own `Local` state, and says how it talks to the workspace
/// (``workspaceRouting``). Its state is an ``AuthoringWorkspaceContent``: its local state, the
/// authoring capability and the workspace, read-only, and the writable source of a ready
/// session.
///
/// ```swift
/// struct EventViewer: WorkspaceContent {
///   typealias Source = EventWorkingCopy
///   typealias ChangeSet = EventChangeSet
///   struct Local: Equatable { var selection: Event.ID? }
///   typealias State = AuthoringWorkspaceContent<Source, Local>
///   static let workspaceRouting = WorkspaceRouting<EventViewer>.none
///   …
/// }
///
/// AuthoringWorkspace { EventViewer() }
/// ```
///
/// A content feature is testable alone: build its state with
/// ``AuthoringWorkspaceContent/init(context:workspace:local:)`` and give it a `TestStore`.
public protocol WorkspaceContent<Source, ChangeSet>: Reducer
where State == AuthoringWorkspaceContent<Source, Local> {
  associatedtype Source: Sendable
  associatedtype ChangeSet: WorkspaceChangeSet
  associatedtype Local

  /// Which of the content's actions are requests for the workspace, and which receives the
  /// workspace's outcomes; ``WorkspaceRouting/none`` when it asks for nothing.
  static var workspaceRouting: WorkspaceRouting<Self> { get }
}

extension WorkspaceContent {
  /// What the workspace tells its content: Workspace's delegate events (how each operation
  /// ended, a lost authorization).
  public typealias WorkspaceEvent = Workspace<Source, ChangeSet>.Action.Delegate
}
