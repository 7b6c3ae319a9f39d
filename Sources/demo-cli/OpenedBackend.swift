import DemoBackendInterface
import DemoGitBackend
import Foundation

/// The backend a run uses, opened: the in-memory system, or a Git remote (created, or checked
/// and seeded when empty) with its working copies beside the state file (`FILE.workspaces`) or
/// in the run's private temporary folder.
@MainActor
struct OpenedBackend {
  let backend: any DemoBackend
  /// The run's private folder (mode 0700), removed at the end of the run or on SIGINT/SIGTERM.
  let temporaryFolder: URL?

  func removeTemporaryFolder() {
    if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
  }

  /// The backend `invocation` asks for. A state file is reopened only with the backend it
  /// was made with.
  static func open(_ invocation: Invocation, saved: StateFile?, sink: any OutputSink) async
    -> Result<OpenedBackend, Refusal>
  {
    let statePath = invocation.statePath ?? ""
    guard let choice = invocation.remote else {
      if let remote = saved?.remote {
        return .failure(
          Refusal(
            "the state file \(statePath) belongs to the Git remote \(remote); "
              + "add --backend git --remote \(remote)"))
      }
      return .success(OpenedBackend(backend: MemoryBackend(), temporaryFolder: nil))
    }
    if let saved, saved.remote == nil || choice == .new {
      let made = saved.remote.map { "the Git remote \($0)" } ?? "the in-memory system"
      return .failure(Refusal("the state file \(statePath) belongs to \(made), not to this remote"))
    }
    let scratch: URL
    do {
      scratch = try TemporaryFolders.make(prefix: "demo-cli-run-")
    } catch {
      return .failure(Refusal("\(error)"))
    }
    let opened: GitRemoteSetup.Opened
    do {
      opened = try await GitRemoteSetup(scratch: scratch).open(choice)
    } catch {
      TemporaryFolders.remove(scratch)
      return .failure(Refusal(error.description))
    }
    if let saved, saved.remote != opened.remote {
      TemporaryFolders.remove(scratch)
      return .failure(
        Refusal(
          "the state file \(statePath) belongs to the Git remote \(saved.remote ?? ""), "
            + "not \(opened.remote)"))
    }
    if opened.created {
      sink.line(
        "remote: \(opened.remote) (new bare repository, seeded with published and festival; "
          + "its hook guards the head of every proposal)")
    } else if opened.seeded {
      sink.line("remote: \(opened.remote) was empty; seeded it with published and festival")
    }
    let root: URL
    if let path = invocation.statePath {
      root = URL(fileURLWithPath: path + ".workspaces", isDirectory: true).standardizedFileURL
      if let problem = makePrivate(root) {
        TemporaryFolders.remove(scratch)
        return .failure(Refusal("cannot use \(root.path): \(problem)"))
      }
    } else {
      root = scratch.appendingPathComponent("workspaces", isDirectory: true)
    }
    return .success(
      OpenedBackend(
        backend: GitBackend(remote: opened.remote, root: root, headGuard: opened.headGuard),
        temporaryFolder: scratch))
  }

  /// Makes `folder` (the working copies kept beside a state file) private: created with mode
  /// 0700, or an existing one of this user's made 0700; `nil`, or why it cannot be used.
  static func makePrivate(_ folder: URL) -> String? {
    if mkdir(folder.path, 0o700) == 0 { return nil }
    guard errno == EEXIST else { return systemError() }
    var status = stat()
    guard lstat(folder.path, &status) == 0 else { return systemError() }
    guard status.st_mode & S_IFMT == S_IFDIR else { return "it is not a folder" }
    guard status.st_uid == geteuid() else {
      return "it belongs to another user (uid \(status.st_uid))"
    }
    guard status.st_mode & 0o077 == 0 else {
      return chmod(folder.path, 0o700) == 0 ? nil : systemError()
    }
    return nil
  }
}
