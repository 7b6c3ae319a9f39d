import DemoBackendInterface
import DemoGitBackend
import DemoHTTPBackend
import DemoSQLiteBackend
import Foundation
import WorkspaceDemoFeature

extension OpenedBackend {
  /// `--backend sqlite --remote PATH|new`: a new store file in a private temporary folder, or
  /// an existing one (seeded when it has no branches); `--remote URL`: a demo server that keeps
  /// its data in SQLite (see ``openSQLiteServer(_:_:saved:)``). A state file is reopened only
  /// on the remote it was made with.
  static func openSQLite(
    _ choice: RemoteChoice, _ invocation: Invocation, saved: StateFile?, sink: any OutputSink
  ) async -> Result<OpenedBackend, Refusal> {
    if case .existing(let value) = choice, let server = ServerChoice.url(value) {
      return await openSQLiteServer(server, invocation, saved: saved)
    }
    let path: String? =
      switch choice {
      case .new: nil
      case .existing(let path): path
      }
    let opened: SQLiteRemoteSetup.Opened
    do {
      opened = try await SQLiteRemoteSetup().open(path: path)
    } catch {
      return .failure(Refusal(error.description))
    }
    let remote = opened.remote.path
    if let refusal = refusal(reopening: saved, on: remote, statePath: invocation.statePath) {
      return .failure(refusal)
    }
    if opened.created {
      sink.line("remote: \(remote) (new SQLite remote, seeded with published and festival)")
    } else if opened.seeded {
      sink.line("remote: \(remote) had no branches; seeded it with published and festival")
    }
    let scratch: URL
    do {
      scratch = try TemporaryFolders.make(prefix: "demo-cli-run-")
    } catch {
      return .failure(Refusal("\(error)"))
    }
    let root: URL
    switch workingCopies(invocation, scratch: scratch) {
    case .success(let folder): root = folder
    case .failure(let refusal):
      TemporaryFolders.remove(scratch)
      return .failure(refusal)
    }
    let backend = SQLiteBackend(
      remote: opened.remote, root: root, system: saved?.restoredSystem ?? DemoSystem())
    let working = backend.workingDatabase(of: WorkspaceDemoFeature.State.workspaceID).path
    let keeps = invocation.statePath != nil
    return .success(
      OpenedBackend(
        backend: backend, temporaryFolder: scratch,
        closingNote: "the remote stays: sqlite3 \(remote) 'select number, title, author, "
          + "merged_revision from proposals'"
          + (keeps ? "; the working copy: sqlite3 \(working) 'select * from events'" : "")))
  }

  /// `--backend sqlite --remote URL`: the working copy in a SQLite working database, everything
  /// else on a demo server started with `serve --database`; the server is checked by reading
  /// the head of its published branch over its SQLite protocol.
  static func openSQLiteServer(
    _ url: URL, _ invocation: Invocation, saved: StateFile?
  ) async -> Result<OpenedBackend, Refusal> {
    if let refusal = refusal(
      reopening: saved, on: url.absoluteString, statePath: invocation.statePath)
    {
      return .failure(refusal)
    }
    let http = HTTPBackend(server: url)
    let session = http.makeSession()
    do {
      _ = try await SQLiteServerRemote(session: session) { nil }.head(of: "published")
    } catch {
      return .failure(
        Refusal(
          "--remote \(url.absoluteString) is not a demo server with a database "
            + "(demo-cli serve --database FILE): \(error)"))
    }
    let scratch: URL
    do {
      scratch = try TemporaryFolders.make(prefix: "demo-cli-run-")
    } catch {
      return .failure(Refusal("\(error)"))
    }
    switch workingCopies(invocation, scratch: scratch) {
    case .success(let root):
      let backend = SQLiteServerBackend(
        base: HTTPBackend(server: url, session: session), session: session, root: root)
      return .success(OpenedBackend(backend: backend, temporaryFolder: scratch))
    case .failure(let refusal):
      TemporaryFolders.remove(scratch)
      return .failure(refusal)
    }
  }
}
