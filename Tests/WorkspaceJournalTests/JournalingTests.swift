import ComposableCore
import ComposableWorkspace
import Foundation
import Testing
import WorkspaceJournal

@Suite("A journaled publication")
struct JournalingTests {
  @Test("The intent is durable before the call goes out; the record is kept until acknowledged")
  func intentBeforeTheCallAndRecordUntilAcknowledged() async throws {
    let storage = InMemoryJournalStorage()
    let journal = try PublicationJournal(storage: storage)
    let remote = Remote()
    let client = remote.client(watching: journal).journaling(journal, owner: { "ada" })
    let attempt = request("Talk")

    let record = try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)

    #expect(remote.calls.count == 1)
    let held = try #require(remote.calls.first?.journalHeld.first)
    #expect(held.intent.key == attempt.idempotencyKey && held.isPending)
    #expect(held.intent.owner == "ada")
    #expect(held.intent.changes == ChangeDigest.of(Patch(lines: ["a"])))
    // A restart reads the record from the storage, not from memory.
    let reopened = try PublicationJournal(storage: storage)
    #expect(reopened.entries.map(\.record) == [record])

    try await journal.acknowledge(attempt.idempotencyKey)
    #expect(journal.entries.isEmpty)
    #expect(try PublicationJournal(storage: storage).entries.isEmpty)
  }

  @Test("A refusal before any record withdraws the intent; any other failure keeps it pending")
  func refusalsWithdrawOtherFailuresKeep() async throws {
    let journal = try PublicationJournal(storage: InMemoryJournalStorage())
    let moved = WorkspaceHeadMismatch(
      expected: baseline, actual: .init(branch: "main", revision: "r2"))
    let failures: [any Error & Sendable] = [
      moved, WorkspaceAuthorizationError.invalidated, Unavailable(),
    ]
    for (index, failure) in failures.enumerated() {
      let remote = Remote { _ in throw failure }
      let attempt = request("Attempt \(index)")
      await #expect(throws: (any Error).self) {
        try await remote.client().journaling(journal).publishProposal(
          "copy", baseline, Patch(lines: ["a"]), attempt)
      }
      let kept = journal.entry(for: attempt.idempotencyKey)
      #expect((kept != nil) == (failure is Unavailable), "after \(failure)")
      #expect(kept?.isPending ?? true)
    }
  }

  @Test("The retry of an unknown outcome sends the same key once more; an answered one is not sent")
  func retriesSendTheSameKeyAndAnsweredAttemptsAreNotSent() async throws {
    let journal = try PublicationJournal(storage: InMemoryJournalStorage())
    let remote = Remote { call in if call == 0 { throw Unavailable() } }
    let client = remote.client().journaling(journal)
    let attempt = request("Talk")

    await #expect(throws: Unavailable.self) {
      try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)
    }
    let first = try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)
    let again = try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)

    #expect(first == again)
    #expect(remote.calls.map(\.key) == [attempt.idempotencyKey, attempt.idempotencyKey])
    #expect(remote.records.count == 1)
  }

  @Test("An attempt begun by one person is never sent by another")
  func anotherPersonsAttemptIsRefused() async throws {
    let storage = InMemoryJournalStorage()
    let remote = Remote { call in if call == 0 { throw Unavailable() } }
    let attempt = request("Ada's draft")
    let adas = try PublicationJournal(storage: storage)
    await #expect(throws: Unavailable.self) {
      try await remote.client().journaling(adas, owner: { "ada" }).publishProposal(
        "copy", baseline, Patch(lines: ["a"]), attempt)
    }

    // The next run, with grace signed in.
    let restarted = try PublicationJournal(storage: storage)
    let grace = remote.client().journaling(restarted, owner: { "grace" })
    let refusal = await #expect(throws: PublicationIntentOwnedByAnotherPerson.self) {
      try await grace.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)
    }
    #expect(refusal?.intent.owner == "ada")
    #expect(remote.calls.count == 1)
    #expect(restarted.pending.map(\.owner) == ["ada"])

    let ada = remote.client().journaling(restarted, owner: { "ada" })
    _ = try await ada.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)
    #expect(remote.records.count == 1)
  }

  @Test("An intent that cannot be written is not sent, and the journal keeps what it had")
  func anUnwritableIntentIsNotSent() async throws {
    let storage = FlakyStorage()
    let journal = try PublicationJournal(storage: storage)
    let remote = Remote()
    let client = remote.client().journaling(journal)
    let kept = request("Kept")
    _ = try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), kept)

    storage.failing.setValue(true)
    await #expect(throws: PublicationIntentNotDurable.self) {
      try await client.publishProposal("copy", baseline, Patch(lines: ["b"]), request("Lost"))
    }
    #expect(remote.calls.count == 1)
    #expect(journal.entries.map(\.intent.key) == [kept.idempotencyKey])
    await #expect(throws: (any Error).self) { try await journal.acknowledge(kept.idempotencyKey) }
    #expect(journal.entries.count == 1)
  }

  @Test("Many concurrent attempts: every intent and every record kept, none lost")
  func concurrentAttemptsLoseNothing() async throws {
    let storage = InMemoryJournalStorage()
    let journal = try PublicationJournal(storage: storage)
    let client = Remote().client().journaling(journal)
    let attempts = (0..<64).map { request("Attempt \($0)") }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for attempt in attempts {
        group.addTask {
          _ = try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), attempt)
        }
      }
      try await group.waitForAll()
    }
    let reopened = try PublicationJournal(storage: storage)
    #expect(Set(reopened.entries.map(\.intent.key)) == Set(attempts.map(\.idempotencyKey)))
    #expect(reopened.entries.allSatisfy { $0.record != nil })
  }

  @Test("Checkpoints are passed in order, each once")
  func checkpointsInOrder() async throws {
    let journal = try PublicationJournal(storage: InMemoryJournalStorage())
    let passed = LockIsolated<[JournalingCheckpoint]>([])
    let client = Remote().client().journaling(
      journal, checkpoint: { checkpoint in passed.withValue { $0.append(checkpoint) } })
    _ = try await client.publishProposal("copy", baseline, Patch(lines: ["a"]), request("Talk"))
    #expect(passed.current == JournalingCheckpoint.allCases)
  }
}
