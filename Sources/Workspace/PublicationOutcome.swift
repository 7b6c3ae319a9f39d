/// How one publication attempt ended, delivered to the proposal form as
/// `.delegate(.publication(outcome))`.
///
/// None of these change the workspace: the ready session and its baseline stay as they were.
/// Everything but ``published(_:)`` happened before the commit point (no record exists, so the
/// form may retry the same request); ``published(_:)`` is the commit point itself.
public enum PublicationOutcome: Hashable, Sendable {
  /// The captured change set was empty; nothing was sent to the remote.
  case noChanges
  /// The target moved before a record was created; both heads are included.
  case headMoved(WorkspaceHeadMismatch)
  /// Capture or publication failed before a record was created (after any automatic retries of
  /// transient errors), or the client answered an invalid record.
  case failed(WorkspaceFailure)
  /// The remote created the record. It is reported, never installed: the baseline is unchanged.
  case published(ProposalRecord)
}
