import Foundation
import GitWorkspace
import WorkspaceDemoFeature

/// `--remote`: a new bare repository in a temporary folder, or an existing repository.
public enum RemoteChoice: Equatable, Sendable {
  /// `--remote new`.
  case new
  /// `--remote PATH` (or a URL git understands).
  case existing(String)
}

/// Opens the remote `--remote` names: creates a new one, or checks an existing one; an empty
/// one is seeded with the demo's catalogue.
public struct GitRemoteSetup: Sendable {
  /// What came of it.
  public struct Opened: Equatable, Sendable {
    /// The remote as git is given it (an absolute path for a local repository).
    public var remote: String
    /// The repository was created now (`--remote new`).
    public var created: Bool
    /// The branches were seeded now (the repository was empty).
    public var seeded: Bool
    /// Who keeps the head rule: the remote when it has ``GitHeadGuardHook`` (a new remote gets
    /// it), else the client.
    public var headGuard: GitHeadGuard
  }

  var git = GitProcess().withIdentity(
    GitSignature(name: "demo-cli", email: "demo-cli@users.workspace.invalid"))
  /// Where temporary work (the seed's clone) is done: a private folder of the caller's.
  let scratch: URL

  /// A setup doing its temporary work in `scratch` (the system's temporary directory by
  /// default; the clone made there is removed when done).
  public init(scratch: URL = FileManager.default.temporaryDirectory) {
    self.scratch = scratch
  }

  /// The branch the catalogue is published on, and the other seeded branch.
  static let publishedBranch = "published"
  static let otherBranch = "festival"

  /// Creates or checks the remote `choice` names, seeding it when it has no refs yet.
  public func open(_ choice: RemoteChoice) async throws(RemoteSetupError) -> Opened {
    switch choice {
    case .new:
      let remote = FileManager.default.temporaryDirectory
        .appendingPathComponent(
          "demo-cli-remote-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true
        )
        .appendingPathComponent("catalogue.git", isDirectory: true)
      do {
        // Only its owner may enter it (it stays after the run, for them to look at).
        try FileManager.default.createDirectory(
          at: remote.deletingLastPathComponent(), withIntermediateDirectories: false,
          attributes: [.posixPermissions: 0o700])
        try await git.run(
          ["init", "--quiet", "--bare", "--initial-branch=\(Self.publishedBranch)", remote.path])
        try GitHeadGuardHook.install(in: remote)
      } catch {
        throw .cannotCreate(Self.reason(error))
      }
      try await seed(remote.path)
      return Opened(remote: remote.path, created: true, seeded: true, headGuard: .remoteEnforced)

    case .existing(let value):
      let remote =
        value.contains("://") ? value : URL(fileURLWithPath: value).standardizedFileURL.path
      let listing: String
      do {
        listing = try await git.text(["ls-remote", remote])
      } catch {
        throw .notARepository(value, Self.reason(error))
      }
      let headGuard: GitHeadGuard =
        !value.contains("://") && GitHeadGuardHook.isInstalled(in: URL(fileURLWithPath: remote))
        ? .remoteEnforced : .clientChecked
      guard listing.isEmpty else {
        return Opened(remote: remote, created: false, seeded: false, headGuard: headGuard)
      }
      try await seed(remote)
      return Opened(remote: remote, created: false, seeded: true, headGuard: headGuard)
    }
  }

  /// Pushes the demo's seed catalogue to an empty remote: `published` with the in-memory
  /// seed's published events, and `festival` on top of it with the festival's events.
  private func seed(_ remote: String) async throws(RemoteSetupError) {
    let work = scratch.appendingPathComponent(
      "demo-cli-seed-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: work) }
    do {
      try FileManager.default.createDirectory(
        at: work, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      let system = DemoSystem(snapshot: .seed)
      let published = try await system.head(of: Self.publishedBranch).events
      let festival = try await system.head(of: Self.otherBranch).events
      try await git.run(
        ["init", "--quiet", "--initial-branch=\(Self.publishedBranch)", work.path])
      try Data(Self.readme.utf8).write(to: work.appendingPathComponent("README.md"))
      try EventFiles.write(published, to: work)
      try await git.run(["add", "--all"], in: work)
      try await git.run(["commit", "--quiet", "-m", "Publish the catalogue"], in: work)
      try await git.run(["checkout", "--quiet", "-b", Self.otherBranch], in: work)
      try EventFiles.write(festival, to: work)
      try await git.run(["add", "--all"], in: work)
      try await git.run(["commit", "--quiet", "-m", "Plan the festival"], in: work)
      try await git.run(
        [
          "push", "--quiet", remote,
          "refs/heads/\(Self.publishedBranch):refs/heads/\(Self.publishedBranch)",
          "refs/heads/\(Self.otherBranch):refs/heads/\(Self.otherBranch)",
        ], in: work)
    } catch {
      throw .cannotSeed(remote, Self.reason(error))
    }
  }

  static let readme = """
    # Event catalogue

    The demo-cli's event catalogue: one JSON file per event in `events/`.
    The `published` branch is the published catalogue; proposals are `refs/proposals/<key>`.

    """

  /// Git's own message (its `fatal:` line when there is one), or the error's description.
  static func reason(_ error: any Error) -> String {
    guard let error = error as? GitError else { return "\(error)" }
    let lines = error.message.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let fatal = lines.first { $0.hasPrefix("fatal: ") }.map {
      String($0.dropFirst("fatal: ".count))
    }
    return fatal ?? lines.first ?? error.description
  }
}

/// Why `--remote` cannot be used; the tool prints one line and exits with status 1.
public enum RemoteSetupError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `--remote VALUE` cannot be listed by git (and why).
  case notARepository(String, String)
  /// `--remote new` could not create its bare repository (and why).
  case cannotCreate(String)
  /// The empty remote could not be seeded (and why).
  case cannotSeed(String, String)

  public var description: String {
    switch self {
    case .notARepository(let value, let reason):
      "--remote \(value) is not a usable Git repository: \(reason)"
    case .cannotCreate(let reason): "cannot create a new remote: \(reason)"
    case .cannotSeed(let remote, let reason): "cannot seed the empty remote \(remote): \(reason)"
    }
  }
}
