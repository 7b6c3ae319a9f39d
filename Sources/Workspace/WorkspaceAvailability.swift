/// Whether a workspace has a coherent session, and if not, why.
///
/// This is the whole durable lifecycle. Refresh, branch selection, capture and publication are
/// operations tracked by effect ids (``WorkspaceOperation``), never cases here; proposals are
/// remote records, never workspace modes.
///
/// Transitions (driven by ``Workspace``):
/// - `inactive` / `preparationFailed` → `preparing` on `prepareSource`.
/// - `preparing` → `ready` when the client returns a session; → `preparationFailed` when it
///   fails; → `inactive` when preparation is interrupted or authorization is invalidated (no
///   coherent session exists then, and it is not a failure of the workspace).
/// - `ready` stays `ready`: failed operations, interruption and authorization loss keep the
///   session. Removing local data is a separate, app-owned operation.
public enum WorkspaceAvailability<Source: Sendable>: Sendable {
  /// No session, and none is being prepared.
  case inactive
  /// The client is preparing the session.
  case preparing
  /// Preparation failed; no coherent session exists. `prepareSource` tries again.
  case preparationFailed(WorkspaceFailure)
  /// One coherent session: source and baseline.
  case ready(WorkspaceSession<Source>)

  /// The session, when ready.
  public var session: WorkspaceSession<Source>? {
    if case .ready(let session) = self { session } else { nil }
  }

  /// Whether a session is ready.
  public var isReady: Bool { session != nil }

  /// The case's name, for diagnostics (never includes the source).
  public var caseName: String {
    switch self {
    case .inactive: "inactive"
    case .preparing: "preparing"
    case .preparationFailed: "preparationFailed"
    case .ready: "ready"
    }
  }
}

extension WorkspaceAvailability: Equatable where Source: Equatable {}
extension WorkspaceAvailability: Hashable where Source: Hashable {}
extension WorkspaceAvailability: Codable where Source: Codable {}
