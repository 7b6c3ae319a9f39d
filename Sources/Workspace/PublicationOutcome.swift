/// How one publication attempt ended, delivered to the proposal form as
/// `.delegate(.publication(outcome))`. Every attempt that is not cancelled ends with exactly one
/// of these; an attempt cancelled by `interruptAuthorizedWork` ends with the workspace's
/// `.delegate(.interrupted)` instead (sent by the interrupting action itself, so it arrives even
/// when the attempt had not started), or — if its record was created anyway — with
/// ``published(_:)`` after that.
///
/// None of these change the workspace: the ready session and its baseline stay as they were.
/// ``noChanges``, ``headMoved(_:)`` and ``failed(_:)`` happened before the
/// commit point (no record was created by this attempt, so the form may retry the same
/// request, whose idempotency key makes the retry create at most one record).
/// ``published(_:)`` and ``publishedInvalidRecord(_:)`` are the commit point itself: a record
/// exists, and publishing the attempt again under a new key would duplicate it.
public enum PublicationOutcome: Hashable, Sendable {
  /// The captured change set was empty; nothing was sent to the remote.
  case noChanges
  /// The target moved before a record was created; both heads are included.
  case headMoved(WorkspaceHeadMismatch)
  /// Capture or publication failed before a record was created (after any automatic retries of
  /// transient errors). A client answering ``WorkspaceAuthorizationError/invalidated`` ends
  /// here too, with a failure of kind ``WorkspaceFailure/Kind/authorizationInvalidated``.
  case failed(WorkspaceFailure)
  /// The remote created the record. It is reported, never installed: the baseline is unchanged.
  case published(ProposalRecord)
  /// The remote created a record, but the client answered one that breaks the integration
  /// contract (its target is not the installed baseline). The violation was reported as an
  /// issue; the record is delivered so the form knows one exists (do not publish the attempt
  /// again under a new key), and nothing in it should be shown or kept as if it were valid.
  case publishedInvalidRecord(ProposalRecord)
}
