import ComposableCore
import ComposableWorkspace
import Foundation
import WorkspaceDemoFeature

/// The publication attempt whose outcome is not known yet, made durable before the backend is
/// asked (with `--state`: written into the state file, synced with its directory).
///
/// The host gives it a way to persist (``persist``); the journaling workspace client
/// (``WorkspaceClient/journaling(_:)``) calls ``begin(_:)`` before every `publishProposal`
/// and ``settle(_:)`` once the outcome is known. A settled attempt leaves the file with the
/// next save — the one that also writes its record — so the file never holds neither.
final class PublicationJournal: Sendable {
  private let intent: LockIsolated<PublicationIntent?>
  private let persistence = LockIsolated<(@Sendable () async throws -> Void)?>(nil)

  /// A journal holding `pending` (restored from a state file), if any.
  init(pending: PublicationIntent? = nil) {
    self.intent = LockIsolated(pending)
  }

  /// The attempt whose outcome is not known yet.
  var pending: PublicationIntent? { intent.current }

  /// Writes the state (which reads ``pending``) durably; without one, nothing is kept across
  /// runs.
  func persist(with save: @escaping @Sendable () async throws -> Void) {
    persistence.setValue(save)
  }

  /// Makes `attempt` the pending one, durably. When that fails the attempt must not go out
  /// (the journal keeps what it had).
  func begin(_ attempt: PublicationIntent) async throws {
    let previous = intent.withValue { current in
      defer { current = attempt }
      return current
    }
    do {
      try await persistence.current?()
    } catch {
      intent.setValue(previous)
      throw PublicationIntentNotDurable(reason: "\(error)")
    }
  }

  /// The attempt with `key` has a known outcome (a record, or a definite refusal).
  func settle(_ key: UUID) {
    intent.withValue { if $0?.request.idempotencyKey == key { $0 = nil } }
  }

  /// The user gave the pending attempt up (a fresh proposal).
  func abandon() {
    intent.setValue(nil)
  }
}

/// The intent of a publication attempt could not be made durable, so it was not sent.
struct PublicationIntentNotDurable: Error, CustomStringConvertible {
  var reason: String
  var description: String { "the attempt could not be recorded before sending it (\(reason))" }
}

extension WorkspaceClient where Source == EventWorkingCopy, ChangeSet == EventChangeSet {
  /// This client, with every `publishProposal` journaled in `journal`: the attempt's intent is
  /// durable before the call goes out, and settled when its outcome is known — a record, or a
  /// refusal that happened before any record could exist (`WorkspaceHeadMismatch`,
  /// `WorkspaceAuthorizationError`). Any other failure leaves it pending: its record may exist,
  /// and only sending the same request again (same key) can tell.
  func journaling(_ journal: PublicationJournal) -> Self {
    var client = self
    let publish = publishProposal
    client.publishProposal = { source, baseline, changes, request in
      CrashInjection.at(.beforeIntent)
      try await journal.begin(
        PublicationIntent(
          request: request, workspace: source.workspace, baseline: baseline,
          changes: PublicationIntent.digest(of: changes)))
      CrashInjection.at(.afterIntent)
      let record: ProposalRecord
      do {
        record = try await publish(source, baseline, changes, request)
      } catch let error
        where error is WorkspaceHeadMismatch || error is WorkspaceAuthorizationError
      {
        journal.settle(request.idempotencyKey)
        throw error
      }
      CrashInjection.at(.afterAnswer)
      journal.settle(request.idempotencyKey)
      return record
    }
    return client
  }
}
