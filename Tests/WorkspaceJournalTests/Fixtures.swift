import ComposableCore
import ComposableWorkspace
import Foundation
import WorkspaceJournal

/// A change set the journal can digest.
struct Patch: WorkspaceChangeSet, Codable, Equatable {
  var lines: [String]
  var isEmpty: Bool { lines.isEmpty }
}

let baseline = WorkspaceBranchReference(branch: "main", revision: "r1")

func request(_ title: String, key: UUID = UUID()) -> ProposalRequest {
  ProposalRequest(title: title, summary: "", idempotencyKey: key)
}

/// A remote that creates one record per key and remembers every call (and what the journal
/// held when each call came in).
final class Remote: Sendable {
  struct Call: Sendable {
    var key: UUID
    var journalHeld: [JournalEntry]
  }

  private let state = LockIsolated<(records: [UUID: ProposalRecord], calls: [Call])>(([:], []))
  let answer: @Sendable (Int) throws -> Void

  /// `answer(n)` runs before the n-th call (0-based) creates anything; it may throw.
  init(answer: @escaping @Sendable (Int) throws -> Void = { _ in }) {
    self.answer = answer
  }

  var calls: [Call] { state.current.calls }
  var records: [ProposalRecord] { Array(state.current.records.values) }

  func client(watching journal: PublicationJournal? = nil) -> WorkspaceClient<String, Patch> {
    WorkspaceClient(
      prepareSource: { _ in WorkspaceSession(source: "copy", baseline: baseline) },
      refreshBaseline: { source, baseline in WorkspaceSession(source: source, baseline: baseline) },
      selectBranch: { source, branch in
        WorkspaceSession(source: source, baseline: .init(branch: branch, revision: "r1"))
      },
      captureChanges: { _, _ in Patch(lines: ["a"]) },
      publishProposal: { _, baseline, _, request in
        let number = self.state.withValue { state -> Int in
          state.calls.append(Call(key: request.idempotencyKey, journalHeld: journal?.entries ?? []))
          return state.calls.count - 1
        }
        try self.answer(number)
        return self.state.withValue { state in
          if let record = state.records[request.idempotencyKey] { return record }
          let record = ProposalRecord(
            id: "P\(state.records.count + 1)", contentRevision: "c\(state.records.count + 1)",
            target: baseline)
          state.records[request.idempotencyKey] = record
          return record
        }
      }
    )
  }
}

/// A storage whose writes fail while `failing` is set.
final class FlakyStorage: JournalStorage {
  private let inner = InMemoryJournalStorage()
  let failing = LockIsolated(false)

  func read() throws -> Data? { try inner.read() }

  func write(_ data: Data) throws {
    if failing.current { throw CocoaError(.fileWriteOutOfSpace) }
    try inner.write(data)
  }
}

struct Unavailable: Error {}

/// A fresh folder under the temporary directory, removed by `remove()`.
struct Folder {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("journal-tests-\(UUID().uuidString)", isDirectory: true)

  init() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() { try? FileManager.default.removeItem(at: url) }

  var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }
}
