import ComposableCore
import ComposableWorkspace

/// The demo's `Source`: the writable copy of a branch's events. The editor changes it; the
/// workspace compares it with the installed baseline to capture a change set.
public struct EventWorkingCopy: Sendable, Hashable, Codable {
  /// The workspace this copy belongs to.
  public let workspace: WorkspaceID
  public var events: IdentifiedArray<Event>

  public init(workspace: WorkspaceID, events: IdentifiedArray<Event>) {
    self.workspace = workspace
    self.events = events
  }
}

extension EventChangeSet: WorkspaceChangeSet {}
