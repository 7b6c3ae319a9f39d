import ComposableCore
import ComposableWorkspace
import Foundation

/// The publication rules: retry-safe (also once the target moved), exact record identity, the
/// record not installed, and a moved head refused before any record exists.
extension ContractChecks {
  static func retrySafePublication(_ subject: Subject, _ problems: ContractFindings) async throws {
    guard let (session, changes) = try await editedSession(subject, problems) else { return }
    let before = try await listRecords(subject)
    let request = newRequest("retry")
    let first = try await publish(subject, session, changes, request)
    let retried = try await publish(
      subject, session, changes, request, "publishProposal retried with the same request")
    if first != retried {
      problems.append("the same request answered \(first), then \(retried)")
    }
    if let before, let after = try await listRecords(subject) {
      let created = after.subtracting(before)
      if created.count != 1 {
        problems.append(
          "publishing the same request twice created \(created.count) records (\(created.sorted().joined(separator: ", "))) instead of one"
        )
      }
    }
  }

  static func retryAfterTargetMoved(_ subject: Subject, _ problems: ContractFindings)
    async throws
  {
    guard let (session, changes) = try await editedSession(subject, problems) else { return }
    let branch = session.baseline.branch
    let request = newRequest("retry after the target moved")
    let first = try await publish(subject, session, changes, request)
    let before = try await listRecords(subject)
    // Someone else's change lands after the record was made, before the answer is read (a
    // lost answer, a crash): the attempt is sent again with its key.
    try await moveHead(subject, branch)
    do {
      let retried = try await subject.client.publishProposal(
        session.source, session.baseline, changes, request)
      if retried != first {
        problems.append(
          "after \(branch) moved, the retry answered \(retried) instead of the record it made, \(first)"
        )
      }
    } catch let mismatch as WorkspaceHeadMismatch {
      problems.append(
        "the retry of an attempt whose record \(first.id) exists threw \(mismatch) instead of answering that record: it did not look up its own proposal first"
      )
    } catch {
      problems.append(
        "the retry of an attempt whose record \(first.id) exists threw \(describe(error)) after \(branch) moved"
      )
    }
    if let before, let after = try await listRecords(subject), after != before {
      problems.append(
        "the retry after \(branch) moved changed the records: \(before.sorted()) → \(after.sorted())"
      )
    }
  }

  static func exactRecordIdentity(_ subject: Subject, _ problems: ContractFindings) async throws {
    guard let (session, changes) = try await editedSession(subject, problems) else { return }
    let record = try await publish(subject, session, changes, newRequest("identity"))
    if record.target != session.baseline {
      problems.append(
        "the record's target \(record.target) is not the installed baseline \(session.baseline)")
    }
    if record.id.isEmpty { problems.append("the record has an empty identity: \(record)") }
    if record.contentRevision.isEmpty {
      problems.append("the record has an empty content revision: \(record)")
    }
    if !record.contentRevision.isEmpty, record.contentRevision == session.baseline.revision {
      problems.append("the record's content revision is the baseline's own revision: \(record)")
    }
    if let listed = try await listRecords(subject), !listed.contains(record.id) {
      problems.append("the remote lists no record \(record.id) (it lists \(listed.sorted()))")
    }
    let other = try await publish(
      subject, session, changes, newRequest("identity, second attempt"),
      "publishProposal with a second attempt's request"
    )
    if other.id == record.id {
      problems.append("two attempts (two idempotency keys) answered the same identity \(record.id)")
    }
  }

  static func recordNotInstalled(_ subject: Subject, _ problems: ContractFindings) async throws {
    guard let (session, changes) = try await editedSession(subject, problems) else { return }
    let record = try await publish(subject, session, changes, newRequest("not installed"))
    let again = try await prepare(subject, "prepareSource(\(subject.workspaceID)) after publishing")
    if again.baseline != session.baseline {
      problems.append(
        "after publishing \(record.id), prepareSource answered \(again.baseline) instead of \(session.baseline)"
      )
    }
    if try await capture(subject, session, "captureChanges after publishing").isEmpty {
      problems.append(
        "after publishing \(record.id), the writable content no longer differs from the baseline: the record was installed"
      )
    }
    let refreshed = try await step("refreshBaseline after publishing") {
      try await subject.client.refreshBaseline(session.source, session.baseline).baseline
    }
    if refreshed != session.baseline {
      problems.append(
        "after publishing \(record.id) (nothing merged), refreshBaseline answered \(refreshed) instead of \(session.baseline): the record was installed on the branch"
      )
    }
  }

  static func headMismatchBeforeRecord(_ subject: Subject, _ problems: ContractFindings)
    async throws
  {
    var session = try await prepare(subject)
    let branch = session.baseline.branch
    session = try await edit(subject, session)
    let changes = try await capture(subject, session)
    guard !changes.isEmpty else {
      problems.append(editNotSeen)
      return
    }
    let before = try await listRecords(subject)
    try await moveHead(subject, branch)
    let request = newRequest("moved head")
    do {
      let record = try await subject.client.publishProposal(
        session.source, session.baseline, changes, request)
      problems.append(
        "publishProposal answered \(record) although \(branch) moved away from \(session.baseline)")
    } catch let mismatch as WorkspaceHeadMismatch {
      if mismatch.expected != session.baseline {
        problems.append(
          "the mismatch's expected head \(mismatch.expected) is not the installed baseline \(session.baseline)"
        )
      }
      if mismatch.actual.branch != branch || mismatch.actual.revision == session.baseline.revision {
        problems.append(
          "the mismatch's actual head \(mismatch.actual) is not the moved head of \(branch)")
      }
    } catch {
      problems.append(
        "publishProposal threw \(describe(error)) instead of WorkspaceHeadMismatch when \(branch) moved"
      )
    }
    if let before, let after = try await listRecords(subject), after != before {
      problems.append(
        "records \(after.subtracting(before).sorted()) were created although the target had moved")
    }
    // The attempt ended before the commit point, so the form may send the same request again
    // after refreshing: it must create exactly one record, against the refreshed baseline.
    let refreshedSession = try await step("refreshBaseline after the mismatch") {
      try await subject.client.refreshBaseline(session.source, session.baseline)
    }
    let refreshed = refreshedSession.baseline
    let recaptured = try await capture(
      subject, refreshedSession, "captureChanges against the refreshed baseline")
    guard !recaptured.isEmpty else {
      problems.append("could not retry the attempt: the edit was gone after refreshBaseline")
      return
    }
    let record = try await publish(
      subject, refreshedSession, recaptured, request,
      "publishProposal of the same request after refreshing"
    )
    if record.target != refreshed {
      problems.append(
        "the retried attempt answered \(record), whose target is not the refreshed baseline \(refreshed): a record was created before the mismatch"
      )
    }
    if let before, let after = try await listRecords(subject), after.subtracting(before).count != 1
    {
      problems.append(
        "after the mismatch and one successful retry, the remote holds \(after.subtracting(before).count) new records instead of one"
      )
    }
  }
}
