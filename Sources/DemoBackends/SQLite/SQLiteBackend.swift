import ComposableAuthoring
import ComposableWorkspace
import DemoBackendInterface
import DemoSQLiteCatalogue
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

/// The demo on a SQLite remote: the catalogue is the `events` table (``EventTable``) of the
/// remote's `published` branch, each workspace a SQLite working database, proposals the SQLite
/// client's changesets. Accounts, sessions and admission stay on the in-memory system.
///
/// ```swift
/// let opened = try await SQLiteRemoteSetup().open(path: nil)
/// let backend = SQLiteBackend(remote: opened.remote, root: workingCopiesFolder)
/// ```
///
/// At any moment `sqlite3 <root>/<workspace>/working.sqlite 'select * from events'` shows the
/// working copy: the host writes every edit through (``DemoBackendClients/keepWorkingCopy``).
public struct SQLiteBackend: DemoBackend {
  /// The remote store.
  public let store: SQLiteRemoteStore
  /// Where the working databases are kept: one folder per workspace id.
  public let root: URL
  /// Where accounts, sessions and admission are kept.
  public let accounts: DemoSystem

  public init(remote: SQLiteRemoteStore, root: URL, system: DemoSystem = DemoSystem()) {
    self.store = remote
    self.root = root
    self.accounts = system
  }

  public var system: DemoSystem? { accounts }

  public var remote: String? { store.path }

  public var name: String { "sqlite" }

  public var placeDescription: String { "the SQLite remote \(store.path)" }

  /// The branch a new workspace is prepared on.
  static let publishedBranch = CatalogueSeed.publishedBranch

  /// The working database of workspace `id` (whether or not it was prepared yet).
  public func workingDatabase(of id: WorkspaceID) -> URL {
    client(capability: { nil }).directory(for: id).appendingPathComponent("working.sqlite")
  }

  public func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients {
    let sqlite = client(capability: accounts.honouredCapability(of: credentials))
    let catalogue = SQLiteCatalogue(remote: store, root: root)
    let working = SQLiteWorkingCopies(sqlite)
    let application = DemoClients(
      credentials: credentials,
      auth: .demo(system: accounts, credentials: credentials),
      authoring: .demo(system: accounts, credentials: credentials),
      workspace: working.workspace,
      catalogue: catalogue.client,
      localData: working.localData)
    return DemoBackendClients(
      application: application, reader: catalogue, keepWorkingCopy: working.keep)
  }

  private func client(
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) -> SQLiteWorkspaceClient {
    SQLiteWorkspaceClient(
      remote: store, root: root, defaultBranch: Self.publishedBranch, capability: capability)
  }
}
