import ComposableWorkspace
import Foundation
import SQLiteWorkspace

/// The `sqlite` group's figures.
struct SQLiteSummary {
  let capture: Summary
  let capturePlain: Summary
  let publish: Summary
  let publishPlain: Summary
  /// The capture alternation on the `largeRows` workspace (client, plain).
  let captureLarge: Summary
  let capturePlainLarge: Summary
  /// The capture alternation on the `hugeRows` workspace (client, plain).
  let captureHuge: Summary
  let capturePlainHuge: Summary
  /// The `hugeRows` workspace's setup, timed once: `createBranch`, `prepareSource`.
  let buildHuge: Summary
  let prepareHuge: Summary
}

/// `sqlite_capture_*`, `sqlite_publish_*` and their plain baselines, on generated workspaces
/// (see ``SQLiteBenchmarkWorkspace``) of `rows`, `largeRows` and `hugeRows` rows with 100 of
/// them changed, each in a folder of its own under one fresh folder in `$TMPDIR`, removed as
/// soon as its size is measured (and all of it at the end).
///
/// - Capture (`rows`): the client's `captureChanges(source, baseline)` and
///   ``PlainSessionDiff/changeset(_:)`` on the same two files alternate; the working database
///   does not change, so every repetition does the same work. The client must answer the 100
///   changed rows, and both the same changeset bytes.
/// - Publication (`rows`): the client's `captureChanges` then `publishProposal` (a new
///   idempotency key each time) against the ``SQLiteRemoteStore``, alternating with the plain
///   diff then ``PlainProposalStore/propose(changeset:size:target:)`` into a plain file. A
///   proposal does not move `main`, so every repetition targets the same head. Checks: the
///   store holds one proposal per client repetition, `main` did not move, and the last client
///   content revision and the last plain one are the same database bytes.
/// - Growth: the same capture alternation on `largeRows` rows (`largeRepetitions`
///   repetitions) and `hugeRows` rows (`hugeRepetitions`), each on a workspace of its own.
///   `buildHuge` and `prepareHuge` are the setup of the `hugeRows` workspace, timed once:
///   `createBranch` with the rows made by one statement, and `prepareSource`.
@MainActor
func benchmarkSQLite(
  rows: Int, largeRows: Int, hugeRows: Int, repetitions: Int, largeRepetitions: Int,
  hugeRepetitions: Int
) async throws -> SQLiteSummary {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("composable-benchmarks-sqlite-\(UUID().uuidString)", isDirectory: true)
  defer { try? FileManager.default.removeItem(at: folder) }

  let workspace = try await SQLiteBenchmarkWorkspace.make(
    rows: rows, in: folder.appendingPathComponent("rows-\(rows)", isDirectory: true))
  defer { workspace.remove() }
  let (captures, publishes) = try await measureCaptureAndPublish(
    workspace, repetitions: repetitions)

  let large = try await measureCapture(
    rows: largeRows, in: folder, repetitions: largeRepetitions)
  let huge = try await measureCapture(
    rows: hugeRows, in: folder, repetitions: hugeRepetitions)

  return SQLiteSummary(
    capture: captures[0], capturePlain: captures[1], publish: publishes[0],
    publishPlain: publishes[1], captureLarge: large.captures[0],
    capturePlainLarge: large.captures[1], captureHuge: huge.captures[0],
    capturePlainHuge: huge.captures[1], buildHuge: once(huge.build),
    prepareHuge: once(huge.prepare))
}

/// The capture and publication alternations on `workspace`: medians of the client's and the
/// plain repetitions, in that order.
@MainActor
private func measureCaptureAndPublish(
  _ workspace: SQLiteBenchmarkWorkspace, repetitions: Int
) async throws -> (captures: [Summary], publishes: [Summary]) {
  let (client, source, baseline) = (workspace.client, workspace.source, workspace.baseline)
  let plain = try PlainSessionDiff(
    working: source.workingDatabaseURL, baseline: workspace.baselineFile, table: "items")
  let (captures, changes) = try await measureCaptures(workspace, plain, repetitions: repetitions)
  try check(
    try plain.changesetData() == changes.changeset,
    "sqlite capture: the plain diff made other changeset bytes than the client")

  // Publication.
  let target = try await workspace.remote.image(of: baseline.revision)
  let store = try PlainProposalStore(
    path: workspace.folder.appendingPathComponent("plain-store.sqlite").path, image: target)
  let published = Latest<ProposalRecord>()
  let plainContent = Latest<Int64>()
  let publishes = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        let request = ProposalRequest(
          title: "Change 100 rows", summary: "Made by composable-benchmarks.",
          idempotencyKey: UUID())
        let elapsed = try await time {
          let changes = try await client.captureChanges(source, baseline)
          published.value = try await client.publishProposal(source, baseline, changes, request)
        }
        try check(
          published.value?.target == baseline,
          "sqlite publish: the client answered \(String(describing: published.value))")
        return elapsed.milliseconds
      },
      {
        try await time {
          plainContent.value = try plain.changeset { bytes, size in
            try store.propose(changeset: bytes, size: size, target: 1)
          }
        }.milliseconds
      },
    ])
  let proposals = try await workspace.remote.proposals()
  try check(
    proposals.count == repetitions + 1,
    "sqlite publish: the store holds \(proposals.count) proposals, not \(repetitions + 1)")
  try check(
    try await workspace.remote.head(of: baseline.branch) == baseline,
    "sqlite publish: \(baseline.branch) moved")
  guard let record = published.value, let content = plainContent.value else {
    throw BenchmarkFailure("sqlite publish: no repetition ran")
  }
  try check(
    try await workspace.remote.image(of: record.contentRevision) == store.image(of: content),
    "sqlite publish: the client's content revision is not the plain one's database")
  return (captures, publishes)
}

/// The capture alternation on a new workspace of `rows` rows in a folder of its own under
/// `folder`, removed afterwards; with its setup times.
@MainActor
private func measureCapture(
  rows: Int, in folder: URL, repetitions: Int
) async throws -> (captures: [Summary], build: Duration, prepare: Duration) {
  let workspace = try await SQLiteBenchmarkWorkspace.make(
    rows: rows, in: folder.appendingPathComponent("rows-\(rows)", isDirectory: true))
  defer { workspace.remove() }
  let plain = try PlainSessionDiff(
    working: workspace.source.workingDatabaseURL, baseline: workspace.baselineFile,
    table: "items")
  let (captures, _) = try await measureCaptures(workspace, plain, repetitions: repetitions)
  return (captures, workspace.build, workspace.prepare)
}

/// The client's capture and the plain session diff it wraps, interleaved; the client's last
/// change set, checked to be the workspace's changed rows.
@MainActor
private func measureCaptures(
  _ workspace: SQLiteBenchmarkWorkspace, _ plain: PlainSessionDiff, repetitions: Int
) async throws -> (captures: [Summary], changes: SQLiteChangeSet) {
  let (client, source, baseline) = (workspace.client, workspace.source, workspace.baseline)
  let captured = Latest<SQLiteChangeSet>()
  let captures = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        try await time { captured.value = try await client.captureChanges(source, baseline) }
          .milliseconds
      },
      {
        try await time {
          let size = try plain.changeset { _, size in size }
          try check(size > 0, "plain sqlite: an empty changeset")
        }.milliseconds
      },
    ])
  guard let changes = captured.value else { throw BenchmarkFailure("sqlite: no capture ran") }
  try workspace.checkCaptured(changes)
  return (captures, changes)
}

/// A setup step timed once, in milliseconds.
private func once(_ duration: Duration) -> Summary {
  Summary(value: duration.milliseconds, repetitions: 1, statistic: "once")
}
