/// The complete durable state of one workspace: its id and its availability.
///
/// ```swift
/// struct AppState {
///   var workspace = WorkspaceState<EventSource>(id: "events")
/// }
/// ```
///
/// Nothing else is durable: operations in progress are effect ids (ask the store with
/// `isEffectInFlight(WorkspaceOperation.refresh(of: id))`), and their outcomes go to the requesting UI
/// as delegate actions. When `Source` is `Codable` the state is too, so an app may persist a
/// ready session.
public struct WorkspaceState<Source: Sendable>: Sendable {
  /// The workspace this state belongs to.
  public let id: WorkspaceID
  /// Whether a coherent session exists.
  public var availability: WorkspaceAvailability<Source>

  /// Creates the state of workspace `id`, `inactive` unless given another availability.
  public init(id: WorkspaceID, availability: WorkspaceAvailability<Source> = .inactive) {
    self.id = id
    self.availability = availability
  }

  /// The ready session, if any.
  public var session: WorkspaceSession<Source>? { availability.session }
}

extension WorkspaceState: Equatable where Source: Equatable {}
extension WorkspaceState: Hashable where Source: Hashable {}
extension WorkspaceState: Codable where Source: Codable {}
