import DemoHTTPBackend
import DemoHTTPProtocol
import DemoServer
import Foundation
import WorkspaceHTTP

/// `--backend http --remote URL|new`.
extension OpenedBackend {
  /// A demo server: a new one in this process (stopped at the end of the run), or a running
  /// one, checked by reading its branches. A state file is reopened only with the server it
  /// was made with (its sessions are not in it: the person signs in again);
  /// ``open(_:saved:sink:)`` refused one of another backend already.
  static func openServer(
    _ choice: ServerChoice, statePath: String?, saved: StateFile?, sink: any OutputSink
  ) async -> Result<OpenedBackend, Refusal> {
    switch choice {
    case .new:
      let server: DemoServer
      do {
        server = try DemoServer()
      } catch {
        return .failure(Refusal("cannot start a demo server: \(error)"))
      }
      sink.line(
        "server: \(server.baseURL.absoluteString) (a new demo server in this process, stopped "
          + "at the end of the run)")
      return .success(
        OpenedBackend(
          backend: HTTPBackend(server: server.baseURL), temporaryFolder: nil,
          stopServer: { await server.stop() }))

    case .existing(let url):
      if let refusal = refusal(
        reopening: saved, on: url.absoluteString, statePath: statePath)
      {
        return .failure(refusal)
      }
      if let problem = await probe(url) {
        return .failure(
          Refusal("--remote \(url.absoluteString) is not a usable demo server: \(problem)"))
      }
      return .success(OpenedBackend(backend: HTTPBackend(server: url), temporaryFolder: nil))
    }
  }

  /// Why `url` does not answer as a demo server (`GET /v1/branches`), or `nil`. It waits as
  /// long as the backend's own calls do (on a loaded machine a live server can take seconds).
  private static func probe(_ url: URL) async -> String? {
    let session = HTTPSession(
      baseURL: url,
      configuration: HTTPSessionConfiguration(timeout: HTTPBackendConfiguration().timeout))
    do {
      let answer = try await session.send(.get(DemoAPI.branches, access: .public))
      guard answer.isSuccess else { return "GET \(DemoAPI.branches) answered \(answer.status)" }
      guard (try? answer.decode([DemoAPI.Branch].self)) != nil else {
        return "GET \(DemoAPI.branches) did not answer the demo's branches"
      }
      return nil
    } catch {
      return "\(error)"
    }
  }
}
