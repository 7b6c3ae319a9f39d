import DemoFossilBackend
import Foundation

/// `--backend fossil --remote URL|new`.
extension OpenedBackend {
  /// A new repository served by a `fossil server` this run starts (and stops by its pid), or
  /// an existing server seeded the same way. A state file is reopened only on the server it
  /// was made with (its login is not in it: the person signs in again);
  /// ``open(_:saved:sink:)`` refused one of another backend already.
  static func openFossil(
    _ choice: FossilRemoteSetup.Choice, _ invocation: Invocation, saved: StateFile?,
    sink: any OutputSink
  ) async -> Result<OpenedBackend, Refusal> {
    let scratch: URL
    do {
      scratch = try TemporaryFolders.make(prefix: "demo-cli-run-")
    } catch {
      return .failure(Refusal("\(error)"))
    }
    let opened: FossilRemoteSetup.Opened
    do {
      opened = try await FossilRemoteSetup().open(choice)
    } catch {
      TemporaryFolders.remove(scratch)
      return .failure(Refusal(error.description))
    }
    let url = opened.url.absoluteString
    let folder: URL
    let root =
      refusal(reopening: saved, on: url, statePath: invocation.statePath).map { .failure($0) }
      ?? workingCopies(invocation, scratch: scratch)
    switch root {
    case .success(let made): folder = made
    case .failure(let refusal):
      await opened.server?.stop()
      TemporaryFolders.remove(scratch)
      return .failure(refusal)
    }
    var note: String?
    var stopServer: (@Sendable () async -> Void)?
    if let server = opened.server { stopServer = { await server.stop() } }
    if let repository = opened.repository, let server = opened.server {
      sink.line(
        "remote: \(url) (a new Fossil repository, \(repository.path), served by fossil server "
          + "pid \(server.pid) until demo-cli ends; seeded with published and festival; its "
          + "users are the demo's accounts)")
      note = "the repository stays: fossil ui \(repository.path)"
    }
    return .success(
      OpenedBackend(
        backend: FossilBackend(opened: opened, root: folder), temporaryFolder: scratch,
        stopServer: stopServer, closingNote: note))
  }
}
