import DemoBackendInterface
import DemoGitBackend
import Foundation
import WorkspaceDemoFeature

/// The backend a run uses, opened: the in-memory system, a Git remote (created, or checked
/// and seeded when empty), a demo server over HTTP (see `OpenedBackend+HTTP.swift`), a
/// Fossil server (see `OpenedBackend+Fossil.swift`) or a SQLite remote (see
/// `OpenedBackend+SQLite.swift`). Working copies on disk go beside the state
/// file (`FILE.workspaces`) or in the run's private temporary folder.
@MainActor
struct OpenedBackend {
  let backend: any DemoBackend
  /// The run's private folder (mode 0700), removed at the end of the run or on SIGINT/SIGTERM.
  let temporaryFolder: URL?
  /// Stops the server this run started (`--remote new`: a demo server in this process, a
  /// `fossil server` stopped by its pid); `nil` when it started none.
  var stopServer: (@Sendable () async -> Void)? = nil
  /// What to tell people at the end of a walk (what the run leaves behind), if anything.
  var closingNote: String? = nil

  /// Ends what the run opened: removes its temporary folder, stops its server.
  func close() async {
    if let temporaryFolder { TemporaryFolders.remove(temporaryFolder) }
    await stopServer?()
  }

  /// Who a state file belongs to: `the in-memory system`, `the Git remote PATH`, `the demo
  /// server URL`, `the Fossil server URL`.
  static func owner(of saved: StateFile) -> String {
    guard let remote = saved.remote else { return "the in-memory system" }
    switch saved.backendName {
    case "http": return "the demo server \(remote)"
    case "fossil": return "the Fossil server \(remote)"
    case "sqlite": return "the SQLite remote \(remote)"
    default: return "the Git remote \(remote)"
    }
  }

  /// The backend `invocation` asks for. A state file is reopened only with the backend (and
  /// the remote) it was made with.
  static func open(_ invocation: Invocation, saved: StateFile?, sink: any OutputSink) async
    -> Result<OpenedBackend, Refusal>
  {
    if let saved, let refusal = refusal(reopening: saved, with: invocation) {
      return .failure(refusal)
    }
    switch invocation.backend {
    case .memory:
      return .success(
        OpenedBackend(
          backend: MemoryBackend(system: saved?.restoredSystem ?? DemoSystem()),
          temporaryFolder: nil))
    case .git(let choice):
      return await openGit(choice, invocation, saved: saved, sink: sink)
    case .http(let choice):
      return await openServer(choice, statePath: invocation.statePath, saved: saved, sink: sink)
    case .fossil(let choice):
      return await openFossil(choice, invocation, saved: saved, sink: sink)
    case .sqlite(let choice):
      return await openSQLite(choice, invocation, saved: saved, sink: sink)
    }
  }

  /// Why `saved` cannot be reopened with the backend `invocation` asks for, before anything
  /// is opened: another backend, or `--remote new` (a new remote is never the file's).
  private static func refusal(reopening saved: StateFile, with invocation: Invocation)
    -> Refusal?
  {
    let path = invocation.statePath ?? ""
    let choice = invocation.backend
    if choice == .memory, let remote = saved.remote {
      return Refusal(
        "the state file \(path) belongs to \(owner(of: saved)); "
          + "add --backend \(saved.backendName) --remote \(remote)")
    }
    guard saved.backendName != choice.name || choice.isNew else { return nil }
    let this =
      switch choice {
      case .git, .sqlite: "this remote"
      default: "this server"
      }
    return Refusal("the state file \(path) belongs to \(owner(of: saved)), not to \(this)")
  }

  /// Why `saved` does not belong to the opened `remote`, or `nil`.
  static func refusal(reopening saved: StateFile?, on remote: String, statePath: String?)
    -> Refusal?
  {
    guard let saved, saved.remote != remote else { return nil }
    return Refusal(
      "the state file \(statePath ?? "") belongs to \(owner(of: saved)), not to \(remote)")
  }

  /// `--backend git --remote PATH|new`: a new bare repository, or an existing one (seeded when
  /// it has no refs yet).
  private static func openGit(
    _ choice: RemoteChoice, _ invocation: Invocation, saved: StateFile?, sink: any OutputSink
  ) async -> Result<OpenedBackend, Refusal> {
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
    if let refusal = refusal(
      reopening: saved, on: opened.remote, statePath: invocation.statePath)
    {
      TemporaryFolders.remove(scratch)
      return .failure(refusal)
    }
    if opened.created {
      sink.line(
        "remote: \(opened.remote) (new bare repository, seeded with published and festival; "
          + "its hook guards the head of every proposal)")
    } else if opened.seeded {
      sink.line("remote: \(opened.remote) was empty; seeded it with published and festival")
    }
    let root: URL
    switch workingCopies(invocation, scratch: scratch) {
    case .success(let folder): root = folder
    case .failure(let refusal):
      TemporaryFolders.remove(scratch)
      return .failure(refusal)
    }
    return .success(
      OpenedBackend(
        backend: GitBackend(
          remote: opened.remote, root: root, headGuard: opened.headGuard,
          system: saved?.restoredSystem ?? DemoSystem()),
        temporaryFolder: scratch,
        closingNote: "the remote stays: git --git-dir \(opened.remote) for-each-ref"))
  }

  /// Where working copies go: beside the state file (made private), or in the run's folder.
  static func workingCopies(_ invocation: Invocation, scratch: URL) -> Result<URL, Refusal> {
    guard let path = invocation.statePath else {
      return .success(scratch.appendingPathComponent("workspaces", isDirectory: true))
    }
    let root = URL(fileURLWithPath: path + ".workspaces", isDirectory: true).standardizedFileURL
    if let problem = makePrivate(root) {
      return .failure(Refusal("cannot use \(root.path): \(problem)"))
    }
    return .success(root)
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
