/// One operation of one workspace, which is also its cancellable effect id.
///
/// Operations are not states: whether one is running is asked of the store, and is observable:
///
/// ```swift
/// let refreshing = store.isEffectInFlight(WorkspaceOperation.refresh(of: "events"))
/// ```
///
/// An id carries its ``WorkspaceID``, so two workspaces composed side by side (two
/// `Workspace`s under two `Scope`s, which share their parent's cancellation ids) never cancel
/// each other's operations.
///
/// Starting an operation cancels the same operation of the same workspace already in flight
/// (its late answer is dropped). Selecting a branch also cancels a refresh in flight.
/// `interruptAuthorizedWork` cancels all of them (``all(of:)``).
public struct WorkspaceOperation: Hashable, Sendable, CustomStringConvertible {
  /// What kind of operation.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// `prepareSource`.
    case preparation
    /// `refreshBaseline`.
    case refresh
    /// `selectBranch`.
    case selection
    /// `captureChanges` for a diff preview.
    case capture
    /// `publishProposal`: capture, then publish with retries.
    case publication
  }

  /// What kind of operation.
  public let kind: Kind
  /// The workspace it works on.
  public let workspace: WorkspaceID

  /// The `kind` operation of `workspace`.
  public init(_ kind: Kind, of workspace: WorkspaceID) {
    self.kind = kind
    self.workspace = workspace
  }

  /// `prepareSource` of `workspace`.
  public static func preparation(of workspace: WorkspaceID) -> Self {
    Self(.preparation, of: workspace)
  }
  /// `refreshBaseline` of `workspace`.
  public static func refresh(of workspace: WorkspaceID) -> Self { Self(.refresh, of: workspace) }
  /// `selectBranch` of `workspace`.
  public static func selection(of workspace: WorkspaceID) -> Self {
    Self(.selection, of: workspace)
  }
  /// `captureChanges` of `workspace`.
  public static func capture(of workspace: WorkspaceID) -> Self { Self(.capture, of: workspace) }
  /// `publishProposal` of `workspace`.
  public static func publication(of workspace: WorkspaceID) -> Self {
    Self(.publication, of: workspace)
  }

  /// Every operation of `workspace`, in ``Kind`` order.
  public static func all(of workspace: WorkspaceID) -> [Self] {
    Kind.allCases.map { Self($0, of: workspace) }
  }

  /// `refresh of events`.
  public var description: String { "\(kind.rawValue) of \(workspace)" }
}
