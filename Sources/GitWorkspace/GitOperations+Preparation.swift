import ComposableWorkspace
import Foundation

extension GitOperations {
  /// Creates or reopens a working copy and answers its coherent session.
  ///
  /// New: clone (init a bare reference + fetch the default branch), record the head as the
  /// installed baseline, check it out into the worktree. Reopened: answer the recorded baseline
  /// and leave the worktree exactly as it is (no fetch, no checkout). A missing worktree is
  /// checked out again at the recorded baseline; a directory at the worktree path that is not
  /// this workspace's worktree is an error and is left untouched.
  func prepare(_ copy: GitWorkingCopy) async throws -> WorkspaceSession<GitWorkingCopy> {
    try validateRemote()
    let directory = copy.reference.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try removeLeftovers(in: directory)
    if FileManager.default.fileExists(atPath: copy.reference.appendingPathComponent("HEAD").path) {
      try await checkOrigin(of: copy.reference)
    } else {
      try await createReference(at: copy.reference)
    }
    let baseline: WorkspaceBranchReference
    if let recorded = try await recordedBaseline(in: copy.reference) {
      baseline = recorded
    } else {
      let branch = configuration.defaultBranch
      try validateBranchName(branch)
      let head = try await fetchHead(of: branch, into: copy.reference)
      baseline = WorkspaceBranchReference(branch: branch, revision: head)
      try await record(baseline, in: copy.reference)
    }
    try await ensureWorktree(copy, at: baseline.revision)
    return WorkspaceSession(source: copy, baseline: baseline)
  }

  /// A bare repository with `origin` = the remote, built beside its final path and renamed
  /// into place, so a crash never leaves a half-made reference at the real path.
  private func createReference(at reference: URL) async throws {
    let partial = reference.deletingLastPathComponent()
      .appendingPathComponent("reference.git.partial-\(UUID().uuidString)", isDirectory: true)
    do {
      try await git.run(["init", "--quiet", "--bare", partial.path])
      try await git.run(["remote", "add", "origin", configuration.remote], in: partial)
      try FileManager.default.moveItem(at: partial, to: reference)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw error
    }
  }

  private func checkOrigin(of reference: URL) async throws {
    let result = try await git.run(
      ["config", "--get", "remote.origin.url"], in: reference, acceptedStatuses: [0, 1]
    )
    let origin = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    guard origin == configuration.remote else {
      throw GitWorkspaceError.remoteMismatch(expected: configuration.remote, found: origin)
    }
  }

  /// Verifies an existing worktree, or checks one out at `revision` (beside its final path,
  /// then moved into place).
  private func ensureWorktree(_ copy: GitWorkingCopy, at revision: String) async throws {
    if FileManager.default.fileExists(atPath: copy.worktree.path) {
      _ = try await validate(copy)
      return
    }
    try await git.run(["worktree", "prune"], in: copy.reference)
    let partial = copy.worktree.deletingLastPathComponent()
      .appendingPathComponent("worktree.partial-\(UUID().uuidString)", isDirectory: true)
    do {
      try await git.run(
        ["worktree", "add", "--quiet", "--detach", partial.path, revision], in: copy.reference)
      try await git.run(["worktree", "move", partial.path, copy.worktree.path], in: copy.reference)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      _ = try? await git.run(["worktree", "prune"], in: copy.reference)
      throw error
    }
  }

  /// Removes what an interrupted preparation left beside the real paths.
  private func removeLeftovers(in directory: URL) throws {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in names
    where name.hasPrefix("reference.git.partial-") || name.hasPrefix("worktree.partial-") {
      try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
  }
}
