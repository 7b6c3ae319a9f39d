import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

/// A feature wrapped by ``AuthoringWorkspace``: it names the workspace's `Source` and
/// `ChangeSet`, and keeps its own `Local` state. Its state is an ``AuthoringWorkspaceContent``:
/// its local state, the authoring capability and the workspace, read-only, and the writable
/// source of a ready session.
///
/// ```swift
/// struct EventViewer: WorkspaceContent {
///   typealias Source = EventWorkingCopy
///   typealias ChangeSet = EventChangeSet
///   struct Local: Equatable { var selection: Event.ID? }
///   typealias State = AuthoringWorkspaceContent<Source, Local>
///   …
/// }
///
/// AuthoringWorkspace { EventViewer() }
/// ```
public protocol WorkspaceContent<Source, ChangeSet>: Reducer
where State == AuthoringWorkspaceContent<Source, Local> {
  associatedtype Source: Sendable
  associatedtype ChangeSet: WorkspaceChangeSet
  associatedtype Local
}
