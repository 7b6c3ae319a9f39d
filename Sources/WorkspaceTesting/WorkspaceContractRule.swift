/// One rule of the `WorkspaceClient` integration contract, as the conformance kit checks it.
///
/// Each case's ``summary`` is the rule in one sentence; every ``WorkspaceRuleViolation``
/// names its rule, so a failing integrator sees which promise broke.
public enum WorkspaceContractRule: String, CaseIterable, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// `prepareSource` returns a complete, coherent session, stable when reopened.
  case completeSession
  /// `captureChanges` of an unedited, freshly prepared source is empty.
  case emptyChangeSetWhenUnedited
  /// Preparing an edited workspace again keeps the edit (writable content is never replaced).
  case preparationKeepsWritableContent
  /// Preparing again never silently advances the baseline, even when the remote moved.
  case preparationKeepsBaseline
  /// Every call works on the exact source value it is given, never on another resource.
  case sourceOwnership
  /// `captureChanges` compares with the installed baseline, not with the remote's head.
  case captureAgainstBaseline
  /// `publishProposal` with the same request again answers the same record and creates no
  /// second one.
  case retrySafePublication
  /// `publishProposal` retried after its record was created and the target then moved answers
  /// that record (it looks up its own proposal first), not a `WorkspaceHeadMismatch`.
  case retryAfterTargetMoved
  /// The record has a non-empty identity, a content revision, and exactly the installed
  /// baseline as its target; another attempt gets another identity.
  case exactRecordIdentity
  /// A published record is reported, not installed: the baseline, the branch and the
  /// writable content stay as they were.
  case recordNotInstalled
  /// `refreshBaseline` keeps the branch identity and answers the branch's current revision.
  case refreshKeepsBranch
  /// `selectBranch` returns exactly the requested branch, installed coherently.
  case exactBranchSelection
  /// Every external operation throws `WorkspaceAuthorizationError.invalidated` once the
  /// capability is gone.
  case authorizationChecked
  /// `publishProposal` throws `WorkspaceHeadMismatch` (expected and actual heads) before
  /// creating any record when the target moved.
  case headMismatchBeforeRecord

  /// The rule in one sentence.
  public var summary: String {
    switch self {
    case .completeSession:
      "prepareSource returns a complete, coherent session"
    case .emptyChangeSetWhenUnedited:
      "captureChanges answers an empty change set when nothing was edited"
    case .preparationKeepsWritableContent:
      "prepareSource never replaces writable content"
    case .preparationKeepsBaseline:
      "prepareSource never silently advances the installed baseline"
    case .sourceOwnership:
      "every later call receives, and works on, the exact source value"
    case .captureAgainstBaseline:
      "captureChanges captures against the session's installed baseline"
    case .retrySafePublication:
      "publishProposal is retry-safe: the same request answers the same record, created once"
    case .retryAfterTargetMoved:
      "publishProposal retried after the target moved answers the record it already made"
    case .exactRecordIdentity:
      "publishProposal returns the exact proposal identity, content revision and target revision"
    case .recordNotInstalled:
      "a created record is reported without being installed"
    case .refreshKeepsBranch:
      "refreshBaseline keeps the branch identity and answers its current revision"
    case .exactBranchSelection:
      "selectBranch returns exactly the requested branch, installed coherently"
    case .authorizationChecked:
      "authorization is checked at every external operation (WorkspaceAuthorizationError.invalidated)"
    case .headMismatchBeforeRecord:
      "publishProposal throws WorkspaceHeadMismatch with expected and actual heads before creating a record"
    }
  }

  public var description: String { rawValue }
}

/// A broken rule: which one, and what the client did.
public struct WorkspaceRuleViolation: Hashable, Sendable, CustomStringConvertible {
  /// The rule that was broken.
  public var rule: WorkspaceContractRule
  /// What happened, naming the calls involved.
  public var message: String

  public init(rule: WorkspaceContractRule, message: String) {
    self.rule = rule
    self.message = message
  }

  /// `[rule] summary: message`.
  public var description: String { "[\(rule.rawValue)] \(rule.summary): \(message)" }
}
