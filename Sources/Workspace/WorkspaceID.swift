/// Identifies one workspace: the scope of its state, independent of any authoring grant.
///
/// Workspace state is keyed by this id, not by the lifetime of a grant: losing a grant cancels
/// the workspace's tasks but keeps an already ready session for the same id.
///
/// ```swift
/// let state = WorkspaceState<EventSource>(id: "event-catalogue")
/// ```
public struct WorkspaceID: StringIdentifier {
  /// The identifier's text.
  public var rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }
}
