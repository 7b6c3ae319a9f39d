import ComposableCore
import ComposableWorkspace
import Foundation

/// The problems one check found, kept even when the check then ends with a thrown step.
final class ContractFindings: Sendable {
  private let storage = LockIsolated<[String]>([])

  var messages: [String] { storage.current }

  func append(_ message: String) {
    storage.withValue { $0.append(message) }
  }
}

/// The checks of the conformance kit, one per rule. Each appends the problems it finds to
/// its findings (none when the rule holds); a client call that throws unexpectedly ends the
/// check with a ``ContractStepFailure``, after the problems found so far.
enum ContractChecks<Source: Sendable, ChangeSet: WorkspaceChangeSet> {
  typealias Subject = WorkspaceContractSubject<Source, ChangeSet>
  typealias Session = WorkspaceSession<Source>

  static func check(
    _ rule: WorkspaceContractRule, _ subject: Subject, _ problems: ContractFindings
  ) async throws {
    switch rule {
    case .completeSession: try await completeSession(subject, problems)
    case .emptyChangeSetWhenUnedited: try await emptyChangeSetWhenUnedited(subject, problems)
    case .preparationKeepsWritableContent:
      try await preparationKeepsWritableContent(subject, problems)
    case .preparationKeepsBaseline: try await preparationKeepsBaseline(subject, problems)
    case .sourceOwnership: try await sourceOwnership(subject, problems)
    case .captureAgainstBaseline: try await captureAgainstBaseline(subject, problems)
    case .retrySafePublication: try await retrySafePublication(subject, problems)
    case .retryAfterTargetMoved: try await retryAfterTargetMoved(subject, problems)
    case .exactRecordIdentity: try await exactRecordIdentity(subject, problems)
    case .recordNotInstalled: try await recordNotInstalled(subject, problems)
    case .refreshKeepsBranch: try await refreshKeepsBranch(subject, problems)
    case .exactBranchSelection: try await exactBranchSelection(subject, problems)
    case .authorizationChecked: try await authorizationChecked(subject, problems)
    case .headMismatchBeforeRecord: try await headMismatchBeforeRecord(subject, problems)
    }
  }

  // MARK: Preparation

  static func completeSession(_ subject: Subject, _ problems: ContractFindings) async throws {
    let id = subject.workspaceID
    let session = try await prepare(subject)
    if session.baseline.branch.rawValue.isEmpty {
      problems.append(
        "prepareSource(\(id)) answered a baseline without a branch: \(session.baseline)")
    }
    if session.baseline.revision.isEmpty {
      problems.append(
        "prepareSource(\(id)) answered a baseline without a revision: \(session.baseline)")
    }
    _ = try await capture(subject, session, "captureChanges on the prepared session")
    let again = try await prepare(subject, "prepareSource(\(id)) a second time")
    if again.baseline != session.baseline {
      problems.append(
        "preparing the untouched workspace again answered \(again.baseline) instead of \(session.baseline)"
      )
    }
    if let same = subject.isSameSource, !same(session.source, again.source) {
      problems.append("preparing the workspace again answered another source than the first time")
    }
  }

  static func emptyChangeSetWhenUnedited(_ subject: Subject, _ problems: ContractFindings)
    async throws
  {
    let session = try await prepare(subject)
    let changes = try await capture(subject, session)
    if !changes.isEmpty {
      problems.append(
        "captureChanges right after prepareSource, with nothing edited, answered \(changes)")
    }
  }

  static func preparationKeepsWritableContent(_ subject: Subject, _ problems: ContractFindings)
    async throws
  {
    var session = try await prepare(subject)
    session = try await edit(subject, session)
    guard try await !capture(subject, session).isEmpty else {
      problems.append(editNotSeen)
      return
    }
    let again = try await prepare(subject, "prepareSource(\(subject.workspaceID)) after an edit")
    let changes = try await capture(subject, again, "captureChanges on the reopened session")
    if changes.isEmpty {
      problems.append(
        "after an edit, preparing the workspace again answered a session without that edit: the writable content was replaced"
      )
    }
  }

  static func preparationKeepsBaseline(_ subject: Subject, _ problems: ContractFindings)
    async throws
  {
    let session = try await prepare(subject)
    try await moveHead(subject, session.baseline.branch)
    let again = try await prepare(
      subject, "prepareSource(\(subject.workspaceID)) after the remote moved")
    if again.baseline != session.baseline {
      problems.append(
        "after the remote head moved, preparing again answered \(again.baseline) instead of the installed \(session.baseline): the baseline was silently advanced"
      )
    }
  }

  static func sourceOwnership(_ subject: Subject, _ problems: ContractFindings) async throws {
    var first = try await prepare(subject)
    let second = try await step("prepareSource(\(subject.secondWorkspaceID))") {
      try await subject.client.prepareSource(subject.secondWorkspaceID)
    }
    if let same = subject.isSameSource, same(first.source, second.source) {
      problems.append(
        "workspaces \(subject.workspaceID) and \(subject.secondWorkspaceID) answered the same source"
      )
    }
    first = try await edit(subject, first)
    if try await capture(subject, first, "captureChanges(source of \(subject.workspaceID))").isEmpty
    {
      problems.append("captureChanges did not see an edit made in the very source it was given")
    }
    let other = try await capture(
      subject, second, "captureChanges(source of \(subject.secondWorkspaceID))")
    if !other.isEmpty {
      problems.append(
        "captureChanges(source of \(subject.secondWorkspaceID)) answered \(other) after an edit in \(subject.workspaceID): the client did not work on the source it was given"
      )
    }
  }

  // MARK: Capture

  static func captureAgainstBaseline(_ subject: Subject, _ problems: ContractFindings) async throws
  {
    var session = try await prepare(subject)
    try await moveHead(subject, session.baseline.branch)
    let unedited = try await capture(subject, session, "captureChanges after the remote head moved")
    if !unedited.isEmpty {
      problems.append(
        "after the remote head moved, captureChanges of unedited content answered \(unedited): it did not compare with the installed baseline \(session.baseline)"
      )
    }
    session = try await edit(subject, session)
    if try await capture(subject, session).isEmpty { problems.append(editNotSeen) }
  }

  // MARK: Baseline

  static func refreshKeepsBranch(_ subject: Subject, _ problems: ContractFindings) async throws {
    let session = try await prepare(subject)
    try await moveHead(subject, session.baseline.branch)
    let refreshedSession = try await step("refreshBaseline(\(session.baseline))") {
      try await subject.client.refreshBaseline(session.source, session.baseline)
    }
    let refreshed = refreshedSession.baseline
    if refreshed.branch != session.baseline.branch {
      problems.append("refreshing \(session.baseline) answered another branch: \(refreshed)")
    } else if refreshed.revision == session.baseline.revision {
      problems.append(
        "after \(session.baseline.branch) moved, refreshBaseline answered the old revision \(refreshed)"
      )
    }
    let other = subject.otherBranch
    // Every later call gets the source the client answered last.
    let selectedSession = try await step("selectBranch(\(other))") {
      try await subject.client.selectBranch(refreshedSession.source, other)
    }
    let selected = selectedSession.baseline
    try await moveHead(subject, other)
    let refreshedOther = try await step("refreshBaseline(\(selected))") {
      try await subject.client.refreshBaseline(selectedSession.source, selected)
    }.baseline
    if refreshedOther.branch != selected.branch {
      problems.append("refreshing \(selected) answered another branch: \(refreshedOther)")
    } else if refreshedOther.revision == selected.revision {
      problems.append(
        "after \(other) moved, refreshBaseline answered the old revision \(refreshedOther)")
    }
  }

  static func exactBranchSelection(_ subject: Subject, _ problems: ContractFindings) async throws {
    let session = try await prepare(subject)
    var source = session.source
    for branch in [subject.otherBranch, session.baseline.branch] {
      let installed = try await step("selectBranch(\(branch))") {
        try await subject.client.selectBranch(source, branch)
      }
      // Every later call gets the source the client answered last.
      source = installed.source
      let selected = installed.baseline
      guard selected.branch == branch else {
        problems.append("selectBranch(\(branch)) answered \(selected)")
        continue
      }
      let changes = try await capture(
        subject, installed, "captureChanges after selectBranch(\(branch))")
      if !changes.isEmpty {
        problems.append(
          "after selectBranch(\(branch)) with nothing edited, captureChanges against \(selected) answered \(changes): the branch was not installed coherently"
        )
      }
    }
  }

  // MARK: Authorization

  static func authorizationChecked(_ subject: Subject, _ problems: ContractFindings) async throws {
    var session = try await prepare(subject)
    session = try await edit(subject, session)
    let changes = try await capture(subject, session)
    let before = try await listRecords(subject)
    await subject.revokeAuthorization()
    let client = subject.client
    let source = session.source
    let baseline = session.baseline
    let calls: [(String, () async throws -> Void)] = [
      ("prepareSource", { _ = try await client.prepareSource(subject.workspaceID) }),
      ("refreshBaseline", { _ = try await client.refreshBaseline(source, baseline) }),
      ("selectBranch", { _ = try await client.selectBranch(source, subject.otherBranch) }),
      ("captureChanges", { _ = try await client.captureChanges(source, baseline) }),
      (
        "publishProposal",
        {
          _ = try await client.publishProposal(
            source, baseline, changes, newRequest("unauthorized"))
        }
      ),
    ]
    for (name, call) in calls {
      do {
        try await call()
        problems.append("\(name) succeeded after the capability was revoked")
      } catch let error as WorkspaceAuthorizationError where error == .invalidated {
        continue
      } catch {
        problems.append(
          "\(name) threw \(describe(error)) instead of WorkspaceAuthorizationError.invalidated after the capability was revoked"
        )
      }
    }
    if let before, let after = try await listRecords(subject), after != before {
      problems.append(
        "publishProposal created \(after.subtracting(before).sorted()) without a valid capability")
    }
  }

  // MARK: Steps

  static var editNotSeen: String {
    "captureChanges did not see the edit made by the subject's edit hook, so the rule could not be checked"
  }

  static func prepare(_ subject: Subject, _ name: String? = nil) async throws -> Session {
    try await step(name ?? "prepareSource(\(subject.workspaceID))") {
      try await subject.client.prepareSource(subject.workspaceID)
    }
  }

  static func capture(_ subject: Subject, _ session: Session, _ name: String = "captureChanges")
    async throws -> ChangeSet
  {
    try await step(name) {
      try await subject.client.captureChanges(session.source, session.baseline)
    }
  }

  static func publish(
    _ subject: Subject, _ session: Session, _ changes: ChangeSet, _ request: ProposalRequest,
    _ name: String = "publishProposal"
  ) async throws -> ProposalRecord {
    try await step(name) {
      try await subject.client.publishProposal(session.source, session.baseline, changes, request)
    }
  }

  /// Prepares, edits and captures: the edited session and its change set, or `nil` (with the
  /// problem recorded) when the client did not see the edit.
  static func editedSession(_ subject: Subject, _ problems: ContractFindings) async throws
    -> (Session, ChangeSet)?
  {
    var session = try await prepare(subject)
    session = try await edit(subject, session)
    let changes = try await capture(subject, session)
    guard !changes.isEmpty else {
      problems.append(editNotSeen)
      return nil
    }
    return (session, changes)
  }

  /// The session with its source as the edit hook left it.
  static func edit(_ subject: Subject, _ session: Session) async throws -> Session {
    var edited = session
    edited.source = try await step("the subject's edit hook") {
      try await subject.edit(session.source)
    }
    return edited
  }

  static func moveHead(_ subject: Subject, _ branch: BranchName) async throws {
    try await step("the subject's moveRemoteHead(\(branch)) hook") {
      try await subject.moveRemoteHead(branch)
    }
  }

  static func listRecords(_ subject: Subject) async throws -> Set<String>? {
    guard let proposalIDs = subject.proposalIDs else { return nil }
    return try await step("the subject's proposalIDs hook") { try await proposalIDs() }
  }

  static func newRequest(_ title: String) -> ProposalRequest {
    ProposalRequest(
      title: "Contract check: \(title)", summary: "Made by the conformance kit.",
      idempotencyKey: UUID())
  }
}
