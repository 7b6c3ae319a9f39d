import ComposableAuthoring
import ComposableWorkspace
import Foundation
import GitWorkspace

/// The `git` group's figures.
struct GitSummary {
  let capture: Summary
  let capturePlain: Summary
  let publish: Summary
  let publishPlain: Summary
  let call: Summary
}

/// `git_capture_ms`, `git_publish_ms` and their plain-git baselines, on a generated repository
/// (see ``GitBenchmarkRepository``) with 10 files changed in the worktree.
///
/// Setup, outside the timing: generate the remote; prepare workspace `benchmark` through the
/// client (fetch, checkout); a second later refresh the worktree's index once
/// (`git update-index -q --refresh`, as `git status` would), so no entry is racily clean and a
/// capture hashes only the changed files; append a line to 10 files.
///
/// - Capture: the client's `captureChanges(source, baseline)` and ``PlainGit/capture(base:)``
///   alternate; the worktree does not change, so every repetition does the same work. Both
///   must give the same tree, and the client the 10 modified paths.
/// - Publication: the client's `publishProposal` of the captured change set and
///   ``PlainGit/publish(tree:base:branch:request:)`` alternate, each with a new idempotency key,
///   so each repetition creates a new proposal ref; the branch does not move.
/// - `git_call_ms` (extra): one small git command through the same `GitProcess`
///   (`rev-parse --verify --quiet <base>^{commit}` in the reference repository): the price of
///   each extra invocation.
@MainActor
func benchmarkGit(files: Int, repetitions: Int) async throws -> GitSummary {
  let context = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "bench@example.com"),
    grant: AuthoringGrant(rawValue: "grant-bench"),
    capabilities: [.edit, .publish]
  )
  // The client's own process settings, with the identity it derives from the capability.
  let git = GitProcess().withIdentity(GitSignature.from(context))
  let repository = try await GitBenchmarkRepository.make(files: files, git: git)
  defer { repository.remove() }

  let client = GitWorkspaceClient(remote: repository.remote.path, root: repository.workspaces) {
    context
  }
  .client
  let session = try await client.prepareSource("benchmark")
  let (source, baseline) = (session.source, session.baseline)
  try await Task.sleep(for: .milliseconds(1_100))
  try await git.run(["update-index", "-q", "--refresh"], in: source.worktree)
  try repository.change(source.worktree)
  let index = try await git.text(
    ["rev-parse", "--path-format=absolute", "--git-path", "index"], in: source.worktree)
  let plain = PlainGit(
    git: git, worktree: source.worktree, reference: source.reference,
    index: URL(fileURLWithPath: index))

  // Capture.
  let captured = Latest<GitChangeSet>()
  let plainCaptured = Latest<(tree: String, changes: [(String, String)])>()
  let captures = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        try await time { captured.value = try await client.captureChanges(source, baseline) }
          .milliseconds
      },
      {
        try await time { plainCaptured.value = try await plain.capture(base: baseline.revision) }
          .milliseconds
      },
    ])
  guard let changes = captured.value, let plainChanges = plainCaptured.value else {
    throw BenchmarkFailure("git capture: no repetition ran")
  }
  let expected = repository.changedPaths.map { GitFileChange.modified(path: $0) }
  try check(
    changes.changes == expected && changes.baseline == baseline.revision,
    "git capture: the client captured \(changes.changes) against \(changes.baseline)")
  try check(
    plainChanges.tree == changes.tree
      && plainChanges.changes.map(\.0) == Array(repeating: "M", count: expected.count)
      && plainChanges.changes.map(\.1) == repository.changedPaths,
    "git capture: plain git made tree \(plainChanges.tree) with \(plainChanges.changes), "
      + "the client \(changes.tree)")

  // Publication.
  let published = Latest<ProposalRecord>()
  let plainPublished = Latest<String>()
  let publishes = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        let request = proposalRequest()
        let elapsed = try await time {
          published.value = try await client.publishProposal(source, baseline, changes, request)
        }
        try check(
          published.value?.id == "refs/proposals/\(request.idempotencyKey.uuidString.lowercased())",
          "git publish: the client answered \(String(describing: published.value))")
        return elapsed.milliseconds
      },
      {
        let request = proposalRequest()
        return try await time {
          plainPublished.value = try await plain.publish(
            tree: changes.tree, base: baseline.revision, branch: baseline.branch.rawValue,
            request: request)
        }
        .milliseconds
      },
    ])
  let proposals = try await git.text(
    ["for-each-ref", "--format=%(refname)", "refs/proposals/"], in: repository.remote
  ).split(separator: "\n")
  try check(
    proposals.count == 2 * (repetitions + 1),
    "git publish: the remote holds \(proposals.count) proposals, not \(2 * (repetitions + 1))")
  for commit in [published.value?.contentRevision, plainPublished.value].compactMap({ $0 }) {
    let shape = try await git.text(["show", "-s", "--format=%T %P", commit], in: repository.remote)
    try check(
      shape == "\(changes.tree) \(baseline.revision)",
      "git publish: proposal commit \(commit) has tree and parents \(shape)")
  }
  let head = try await git.text(["rev-parse", "refs/heads/main"], in: repository.remote)
  try check(head == baseline.revision, "git publish: main moved to \(head)")

  // One small git command.
  let call = try await measure(repetitions: 2 * repetitions + 1) {
    try await time {
      try await git.run(
        ["rev-parse", "--verify", "--quiet", "\(baseline.revision)^{commit}"],
        in: source.reference)
    }
    .milliseconds
  }

  return GitSummary(
    capture: captures[0], capturePlain: captures[1], publish: publishes[0],
    publishPlain: publishes[1], call: call)
}

private func proposalRequest() -> ProposalRequest {
  ProposalRequest(
    title: "Change 10 files", summary: "Made by composable-benchmarks.", idempotencyKey: UUID())
}

/// The last value a repetition produced (closures in `measureInterleavedAsync` store here).
@MainActor
final class Latest<Value> {
  var value: Value?
}
