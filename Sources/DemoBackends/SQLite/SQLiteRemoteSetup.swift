import ComposableWorkspace
import DemoSQLiteCatalogue
import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

/// Opens the SQLite remote `--remote` names: a new store file in a private temporary folder,
/// or an existing one; a store without branches (or with only part of the seed, from an
/// interrupted seeding) is seeded with the demo's catalogue.
public struct SQLiteRemoteSetup: Sendable {
  /// What came of it.
  public struct Opened: Sendable {
    public var remote: SQLiteRemoteStore
    /// The store was created now (`--remote new`).
    public var created: Bool
    /// The branches were seeded now (the store had none).
    public var seeded: Bool
  }

  public init() {}

  /// Opens the store at `path`, or a new one when `path` is `nil`, seeding it when it has no
  /// branches yet: `published` with the in-memory seed's published events, and `festival` on
  /// top of it with the festival's.
  public func open(path: String?) async throws(SQLiteRemoteSetupError) -> Opened {
    let file: String
    if let path {
      file = URL(fileURLWithPath: path).standardizedFileURL.path
    } else {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "demo-cli-remote-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
      do {
        // Only its owner may enter it (it stays after the run, for them to look at).
        try FileManager.default.createDirectory(
          at: folder, withIntermediateDirectories: false,
          attributes: [.posixPermissions: 0o700])
      } catch {
        throw .cannotCreate("\(error.localizedDescription)")
      }
      file = folder.appendingPathComponent("catalogue.sqlite").path
    }
    let remote: SQLiteRemoteStore
    do {
      remote = try SQLiteRemoteStore(path: file)
    } catch {
      throw .notARemote(file, "\(error)")
    }
    do {
      let seeded = try await CatalogueSeed.completeSeed(of: remote)
      return Opened(remote: remote, created: path == nil, seeded: seeded)
    } catch {
      throw .cannotSeed(file, "\(error)")
    }
  }
}

/// Why `--remote` cannot be used; the tool prints one line and exits with status 1.
public enum SQLiteRemoteSetupError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `--remote PATH` is not a SQLite remote (and why).
  case notARemote(String, String)
  /// `--remote new` could not create its folder (and why).
  case cannotCreate(String)
  /// The empty remote could not be seeded (and why).
  case cannotSeed(String, String)

  public var description: String {
    switch self {
    case .notARemote(let path, let reason):
      "--remote \(path) is not a usable SQLite remote: \(reason)"
    case .cannotCreate(let reason): "cannot create a new remote: \(reason)"
    case .cannotSeed(let path, let reason): "cannot seed the empty remote \(path): \(reason)"
    }
  }
}
