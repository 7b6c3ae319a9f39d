import DemoBackendInterface
import DemoGitBackend
import DemoServer
import Foundation

/// The backend a run uses, opened: the in-memory system, a Git remote (created, or checked
/// and seeded when empty) with its working copies beside the state file (`FILE.workspaces`) or
/// in the run's private temporary folder, or a demo server over HTTP (see
/// `OpenedBackend+HTTP.swift`).
@MainActor
struct OpenedBackend {
  let backend: any DemoBackend
  /// The run's private folder (mode 0700), removed at the end of the run or on SIGINT/SIGTERM.
  let temporaryFolder: URL?
  /// The demo server this run started (`--backend http --remote new`), stopped at its end.
  var server: DemoServer? = nil

  /// Ends what the run opened: removes its temporary folder, stops its server.
  func close() async {
    if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
    await server?.stop()
  }

  /// Who a state file belongs to: `the in-memory system`, `the Git remote PATH`, `the demo
  /// server URL`.
  static func owner(of saved: StateFile) -> String {
    guard let remote = saved.remote else { return "the in-memory system" }
    return saved.backend == StateFile.httpBackend
      ? "the demo server \(remote)" : "the Git remote \(remote)"
  }

  /// The backend `invocation` asks for. A state file is reopened only with the backend it
  /// was made with.
  static func open(_ invocation: Invocation, saved: StateFile?, sink: any OutputSink) async
    -> Result<OpenedBackend, Refusal>
  {
    let statePath = invocation.statePath ?? ""
    if let server = invocation.server {
      return await openServer(server, statePath: invocation.statePath, saved: saved, sink: sink)
    }
    guard let choice = invocation.remote else {
      if let saved, let remote = saved.remote {
        let option = saved.backend == StateFile.httpBackend ? "http" : "git"
        return .failure(
          Refusal(
            "the state file \(statePath) belongs to \(owner(of: saved)); "
              + "add --backend \(option) --remote \(remote)"))
      }
      return .success(OpenedBackend(backend: MemoryBackend(), temporaryFolder: nil))
    }
    if let saved, saved.remote == nil || choice == .new || saved.backend == StateFile.httpBackend {
      return .failure(
        Refusal("the state file \(statePath) belongs to \(owner(of: saved)), not to this remote"))
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
