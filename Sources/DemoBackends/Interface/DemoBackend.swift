import ComposableAuthoring
import ComposableWorkspace
import WorkspaceDemoFeature

/// Where the demo's catalogue, proposals and workspace live: the in-memory system
/// (``MemoryBackend``) or a live one (a Git remote, a demo server over HTTP, a Fossil server),
/// each in its own module under `Sources/DemoBackends/<Backend>`. A backend that does not sign
/// people in itself keeps accounts, sessions and admission on an in-memory ``system``.
///
/// A host (demo-cli) picks one and builds the application's store over its clients:
///
/// ```swift
/// let clients = backend.clients(credentials: credentials, workingCopies: [])
/// let store = makeWorkspaceDemoStore(clients.application)
/// ```
public protocol DemoBackend: Sendable {
  /// Where the catalogue lives (a path or a URL), as the state file records it; `nil` for the
  /// in-memory system (whose catalogue is saved with the system itself).
  var remote: String? { get }

  /// The in-memory system the backend keeps what it does not serve itself on (accounts,
  /// sessions, admission; for ``MemoryBackend`` everything), saved with a host's state; `nil`
  /// for a backend that serves it all (a demo server, a Fossil server).
  var system: DemoSystem? { get }

  /// The application's clients on this backend, sharing `credentials`.
  ///
  /// - Parameter workingCopies: ready sessions restored from a state file, for a backend that
  ///   keeps working copies in memory (one that keeps them on disk reopens its own).
  func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients

  /// The backend's short name, as `--backend` takes it and a state file records it
  /// (`memory`, `git`, `http`, `fossil`).
  var name: String { get }

  /// Where the demo runs, as people are told it: `an in-memory system`, `the Git remote
  /// PATH`, `the demo server URL`, `the Fossil server URL`.
  var placeDescription: String { get }

  /// Whether a session saved in a state file is still a session in the next run. `false` for
  /// a backend whose sessions live only in the process's memory (a server's cookies, which
  /// are never written to disk): a reopened state file then starts signed out. Default `true`.
  var keepsSessionsAcrossRuns: Bool { get }
}

extension DemoBackend {
  public var keepsSessionsAcrossRuns: Bool { true }
}

/// What a backend gives the application and its host.
public struct DemoBackendClients: Sendable {
  /// Every client the application runs on.
  public var application: DemoClients
  /// The host's own reads of the catalogue (markers, summaries, the reviewer's view).
  public var reader: any CatalogueReader
  /// What the backend announces on its own between commands (a server's live channel, a
  /// watched branch head, the server ending the session); `nil` when it announces nothing.
  public var live: (any LiveChannel)?
  /// Writes the working copy through to where the backend keeps it, so outside tools see
  /// every edit (a working database); the host calls it after each command that may have
  /// edited. `nil` for a backend that stores the working copy only at workspace calls.
  public var keepWorkingCopy: (@Sendable (EventWorkingCopy) async throws -> Void)?
  /// The proposals' review discussion, for a backend that keeps one (the Fossil forum).
  public var discussion: (any ProposalDiscussion)?

  public init(
    application: DemoClients, reader: any CatalogueReader, live: (any LiveChannel)? = nil,
    keepWorkingCopy: (@Sendable (EventWorkingCopy) async throws -> Void)? = nil,
    discussion: (any ProposalDiscussion)? = nil
  ) {
    self.application = application
    self.reader = reader
    self.live = live
    self.keepWorkingCopy = keepWorkingCopy
    self.discussion = discussion
  }
}
