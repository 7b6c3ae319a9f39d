/// The operations of a ready (or preparing) workspace, which are also their cancellable effect
/// ids.
///
/// Operations are not states: whether one is running is asked of the store, and is observable:
///
/// ```swift
/// let refreshing = store.isEffectInFlight(WorkspaceOperation.refresh)
/// ```
///
/// Starting an operation cancels the same operation already in flight (its late answer is
/// dropped). Selecting a branch also cancels a refresh in flight. `interruptAuthorizedWork`
/// cancels all of them.
public enum WorkspaceOperation: Hashable, Sendable, CaseIterable, CustomStringConvertible {
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

  public var description: String {
    switch self {
    case .preparation: "preparation"
    case .refresh: "refresh"
    case .selection: "selection"
    case .capture: "capture"
    case .publication: "publication"
    }
  }
}
