import ComposableCore
import ComposableWorkspace
import Dispatch
import Foundation

/// The publication attempts whose outcome an application has not kept yet, durable in a
/// ``JournalStorage``: what makes publication crash-safe for any `WorkspaceClient`.
///
/// Install it around the client in one line (``ComposableWorkspace/WorkspaceClient/journaling(_:owner:workspace:checkpoint:)-(_,()->String?,_,_)``):
///
/// ```swift
/// let journal = try PublicationJournal(storage: JournalFile(url: journalURL))
/// EventApplication().dependency(client.journaling(journal, owner: capability))
/// ```
///
/// Every `publishProposal` then writes its attempt's ``PublicationIntent`` durably before the
/// call goes out, and the record once the client answers. After a crash at any step the
/// application finds in ``entries``:
/// - an entry with a record: the record exists; keep it, then ``acknowledge(_:)`` it;
/// - a pending entry: the outcome is unknown; when its ``PublicationIntent/owner`` is the
///   person signed in now, send the same request again (same key): the remote answers the
///   record if it was created, or creates it now — exactly one record either way. Another
///   person is shown it and never sends it: the journaled client refuses to
///   (``PublicationIntentOwnedByAnotherPerson``).
///
/// Writes happen on a queue of the journal's own, one at a time and in order, so no thread of
/// Swift concurrency waits for a disk. Reading ``entries`` never blocks on a write: it answers
/// what was last made durable.
public final class PublicationJournal: Sendable {
  private let storage: any JournalStorage
  private let durable: LockIsolated<[JournalEntry]>
  private let writer = DispatchQueue(label: "PublicationJournal.writer")

  /// A journal in memory: publication is journaled, but nothing outlives the process. For
  /// tests, and for an application that has no place to keep it yet.
  public init() {
    self.storage = InMemoryJournalStorage()
    self.durable = LockIsolated([])
  }

  /// Opens the journal kept in `storage`. Reads it once, on the caller's thread (call it where
  /// the application starts, not on a cooperative thread in a hot path).
  ///
  /// - Throws: ``JournalUnreadable`` when what `storage` holds cannot be read or decoded; the
  ///   storage is left as it is.
  public init(storage: some JournalStorage) throws {
    self.storage = storage
    let data: Data?
    do {
      data = try storage.read()
    } catch {
      throw JournalUnreadable(reason: "\(error)")
    }
    guard let data else {
      durable = LockIsolated([])
      return
    }
    do {
      durable = LockIsolated(try JSONDecoder().decode(Contents.self, from: data).entries)
    } catch {
      throw JournalUnreadable(reason: "it is not a publication journal (\(error))")
    }
  }

  /// The attempts whose outcome the application has not kept yet, oldest first, as they were
  /// last made durable.
  public var entries: [JournalEntry] { durable.current }

  /// The entries whose outcome is unknown.
  public var pending: [PublicationIntent] { entries.filter(\.isPending).map(\.intent) }

  /// The entry of the attempt with idempotency key `key`.
  public func entry(for key: UUID) -> JournalEntry? {
    entries.first { $0.intent.key == key }
  }

  /// The application kept the record of attempt `key` durably (or gave the attempt up): its
  /// entry goes.
  public func acknowledge(_ key: UUID) async throws {
    try await update { entries in entries.removeAll { $0.intent.key == key } }
  }

  /// Makes `intent` durable before its call goes out, unless it is already journaled. Answers
  /// the entry as it is now (with its record when an earlier call of the attempt got one).
  ///
  /// - Throws: ``PublicationIntentOwnedByAnotherPerson`` when the key's entry belongs to
  ///   someone else; ``PublicationIntentNotDurable`` when it could not be written (the
  ///   journal keeps what it had, and the call must not go out).
  func begin(_ intent: PublicationIntent) async throws -> JournalEntry {
    let outcome = try await update { entries -> Result<JournalEntry, any Error> in
      if let existing = entries.first(where: { $0.intent.key == intent.key }) {
        guard existing.intent.owner == intent.owner else {
          return .failure(PublicationIntentOwnedByAnotherPerson(intent: existing.intent))
        }
        return .success(existing)
      }
      entries.append(JournalEntry(intent: intent))
      return .success(JournalEntry(intent: intent))
    } writeFailure: { error in
      PublicationIntentNotDurable(reason: "\(error)")
    }
    return try outcome.get()
  }

  /// Keeps the record the client answered for attempt `key`. When it cannot be written the
  /// entry stays pending: sending the same request again answers the same record.
  func answer(_ key: UUID, with record: ProposalRecord) async {
    try? await update { entries in
      guard let index = entries.firstIndex(where: { $0.intent.key == key }) else { return }
      entries[index].record = record
    }
  }

  /// Attempt `key` ended before any record could exist (a moved head, a lost grant): its
  /// entry goes. When that cannot be written it stays pending, which is safe (a resend is
  /// refused the same way).
  func withdraw(_ key: UUID) async {
    try? await update { entries in entries.removeAll { $0.intent.key == key } }
  }

  /// Applies `change` to the durable entries and writes them (when they changed), on the
  /// writer queue: one update at a time, in order; the new entries are in force only once
  /// written. A failed write throws `writeFailure(error)` and leaves the entries as they were.
  @discardableResult
  private func update<T: Sendable>(
    _ change: @escaping @Sendable (inout [JournalEntry]) -> T,
    writeFailure: @escaping @Sendable (any Error) -> any Error = { $0 }
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      writer.async { [storage, durable] in
        let before = durable.current
        var entries = before
        let result = change(&entries)
        guard entries != before else { return continuation.resume(returning: result) }
        do {
          let encoder = JSONEncoder()
          encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
          try storage.write(try encoder.encode(Contents(entries: entries)))
          durable.setValue(entries)
          continuation.resume(returning: result)
        } catch {
          continuation.resume(throwing: writeFailure(error))
        }
      }
    }
  }

  /// The stored form, versioned.
  private struct Contents: Codable {
    var version = 1
    var entries: [JournalEntry]
  }
}
