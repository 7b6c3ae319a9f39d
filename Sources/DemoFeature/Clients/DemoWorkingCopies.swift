import ComposableCore
import ComposableWorkspace

/// The in-memory client's local working copies, one per workspace id: what a real client
/// keeps on disk. The workspace client and the application's local-data client share it (as
/// do the clients of a backend that keeps its copies in memory too, like the HTTP one).
///
/// ```swift
/// let copies = DemoWorkingCopies(restored)        // sessions read back from a state file
/// let workspace = DemoWorkspaceClient.demo(system: system, credentials: credentials,
///                                          workingCopies: copies)
/// let localData = LocalWorkspaceDataClient.demo(workingCopies: copies)
/// ```
public final class DemoWorkingCopies: Sendable {
  private let copies: LockIsolated<[WorkspaceID: WorkspaceSession<EventWorkingCopy>]>

  /// Copies restored from elsewhere (a state file), so they open as they were.
  public init(_ sessions: [WorkspaceSession<EventWorkingCopy>] = []) {
    copies = LockIsolated(
      Dictionary(sessions.map { ($0.source.workspace, $0) }, uniquingKeysWith: { _, last in last }))
  }

  /// The copy of workspace `id`, if one exists.
  public subscript(id: WorkspaceID) -> WorkspaceSession<EventWorkingCopy>? {
    copies.withValue { $0[id] }
  }

  /// Adds `session` unless its workspace has a copy already; answers the copy now kept.
  public func insertIfAbsent(_ session: WorkspaceSession<EventWorkingCopy>)
    -> WorkspaceSession<EventWorkingCopy>
  {
    copies.withValue { copies in
      if let existing = copies[session.source.workspace] { return existing }
      copies[session.source.workspace] = session
      return session
    }
  }

  /// Replaces the copy of `session`'s workspace, if it still exists (a removed copy stays
  /// removed).
  public func update(_ session: WorkspaceSession<EventWorkingCopy>) {
    copies.withValue { copies in
      guard copies[session.source.workspace] != nil else { return }
      copies[session.source.workspace] = session
    }
  }

  /// Removes the copy of workspace `id`; answers whether there was one.
  @discardableResult
  public func remove(_ id: WorkspaceID) -> Bool {
    copies.withValue { $0.removeValue(forKey: id) != nil }
  }
}
