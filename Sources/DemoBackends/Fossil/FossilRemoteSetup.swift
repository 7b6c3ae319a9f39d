import ComposableWorkspace
import FossilWorkspace
import Foundation
import WorkspaceDemoFeature

/// `--backend fossil --remote new|URL`: a new repository served by a `fossil server` this
/// process starts (and stops), or an existing Fossil server seeded with the demo's catalogue.
public struct FossilRemoteSetup: Sendable {
  /// What `--remote` names.
  public enum Choice: Equatable, Sendable {
    /// `--remote new`.
    case new
    /// `--remote URL`.
    case existing(String)
  }

  /// What came of it.
  public struct Opened: Sendable {
    /// The server's URL.
    public var url: URL
    /// The server this process started (`--remote new`): stop it when done.
    public var server: LocalFossilServer?
    /// The repository file of a new server (it stays after the run).
    public var repository: URL?
    /// The reviewer's session (a new server has a reviewer account whose password never
    /// leaves this process); `nil`: the signed-in person reviews.
    public var reviewer: FossilSession?
  }

  /// The branch the catalogue is published on, and the other seeded branch.
  static let publishedBranch = "published"
  static let otherBranch = "festival"
  /// Capabilities of the demo's accounts: authors check in and post on the forum without
  /// moderation (`4`), readers only read (the forum too: they are "not permitted to post").
  static func capabilities(mayAuthor: Bool) -> String { mayAuthor ? "io4" : "o" }

  public init() {}

  /// Creates and serves a new repository, or checks an existing server.
  public func open(_ choice: Choice) async throws(FossilSetupError) -> Opened {
    switch choice {
    case .new: return try await create()
    case .existing(let value): return try await check(value)
    }
  }

  private func create() async throws(FossilSetupError) -> Opened {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "demo-cli-fossil-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
    let file = folder.appendingPathComponent("catalogue.fossil")
    let server: LocalFossilServer
    let reviewerPassword = Self.randomPassword()
    do {
      // Only its owner may enter it (it stays after the run, for them to look at); fossil's
      // global settings go there too, never in the user's home.
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      let repository = try await LocalFossilRepository.create(
        at: file, fossil: FossilCommand(home: folder, user: "demo-cli"))
      for account in DemoAccount.all {
        try await repository.addUser(
          account.username, capabilities: Self.capabilities(mayAuthor: account.mayAuthor),
          password: account.password)
      }
      try await repository.addUser("reviewer", capabilities: "io4", password: reviewerPassword)
      try await seed(repository)
      server = try await LocalFossilServer.start(serving: repository)
    } catch {
      throw .cannotCreate("\(error)")
    }
    let reviewer = FossilSession(baseURL: server.baseURL)
    do {
      _ = try await reviewer.signIn(name: "reviewer", password: reviewerPassword)
    } catch {
      await server.stop()
      throw .cannotCreate("the reviewer cannot sign in: \(error)")
    }
    return Opened(url: server.baseURL, server: server, repository: file, reviewer: reviewer)
  }

  /// `published` with the in-memory seed's published events, `festival` on top of it.
  private func seed(_ repository: LocalFossilRepository) async throws {
    let system = DemoSystem(snapshot: .seed)
    let published = try await system.head(of: Self.publishedBranch).events
    let festival = try await system.head(of: Self.otherBranch).events
    try await repository.commit(
      [
        CatalogueFile.path: try CatalogueFile.encoded(published),
        "README.md": Data(Self.readme.utf8),
      ],
      message: "Publish the catalogue", user: "demo-cli", branch: Self.publishedBranch)
    try await repository.commit(
      [CatalogueFile.path: try CatalogueFile.encoded(festival)], message: "Plan the festival",
      user: "demo-cli", parent: Self.publishedBranch, branch: Self.otherBranch)
  }

  private func check(_ value: String) async throws(FossilSetupError) -> Opened {
    guard let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""),
      url.host != nil
    else { throw .notAFossilServer(value, "it is not an http(s) URL") }
    let session = FossilSession(baseURL: url)
    do {
      _ = try await session.projectCode()
    } catch {
      throw .notAFossilServer(value, "\(error)")
    }
    let reader = FossilReader(session: session)
    guard let head = try? await reader.head(of: BranchName(Self.publishedBranch)),
      (try? await reader.contents(of: CatalogueFile.path, at: head)) != nil
    else { throw .notSeeded(value) }
    return Opened(url: url, server: nil, repository: nil, reviewer: nil)
  }

  /// 24 random bytes as hex: the reviewer's password, known to this process only.
  private static func randomPassword() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<24).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }.joined()
  }

  static let readme = """
    # Event catalogue

    The demo-cli's event catalogue: every event in `catalogue.json`.
    The `published` branch is the published catalogue; proposals are branches `proposal-<key>`.

    """
}

/// Why `--backend fossil --remote` cannot be used; the tool prints one line and exits with
/// status 1.
public enum FossilSetupError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `--remote VALUE` does not answer as a Fossil server (and why).
  case notAFossilServer(String, String)
  /// `--remote new` could not create or serve its repository (and why).
  case cannotCreate(String)
  /// The server has no `published` branch holding the catalogue (Fossil cannot add files over
  /// HTTP, so the demo cannot seed an existing server).
  case notSeeded(String)

  public var description: String {
    switch self {
    case .notAFossilServer(let value, let reason):
      "--remote \(value) is not a usable Fossil server: \(reason)"
    case .cannotCreate(let reason):
      "cannot create a new Fossil repository: \(reason)"
    case .notSeeded(let value):
      "--remote \(value) has no published branch holding \(CatalogueFile.path); serve a "
        + "repository made by --remote new (it stays after the run) with fossil server"
    }
  }
}
