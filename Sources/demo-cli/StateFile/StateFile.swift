import ComposableAuthoring
import ComposableWorkspace
import Foundation
import WorkspaceDemoFeature

/// What `--state FILE` keeps between runs: the in-memory system, the device's credentials and
/// the local workspace.
///
/// Never a password: the system snapshot holds sessions and grants, not accounts (passwords
/// live only in `DemoAccount`'s seed list). The session token and the grant are secrets of a
/// kind, so the file is written with mode 0600.
struct StateFile: Codable, Equatable, Sendable {
  /// The format's version; a file with another one is refused.
  static let currentVersion = 1

  var version: Int
  /// The in-memory system the backend keeps (accounts, sessions, admission; the catalogue and
  /// proposals too for the in-memory backend); `nil` for a backend whose server keeps it all.
  var system: DemoSystemSnapshot?
  /// The signed-in application session.
  var session: DemoSession?
  /// The grant persisted on the device, revalidated at start.
  var persistedGrant: AuthoringGrant?
  /// The workspace: id and availability (a ready session keeps its edits and its baseline).
  var workspace: WorkspaceState<EventWorkingCopy>
  /// The records created from this workspace, in order.
  var proposals: [ProposalRecord]
  /// The Git remote or the server the catalogue was on; `nil` for the in-memory system
  /// (whose catalogue is in ``system``). A file is reopened only with the same backend.
  var remote: String?
  /// Which backend ``remote`` is, by its `--backend` name (`git`, `http`, `fossil`); `nil` for
  /// the in-memory system, and for a Git remote in files written before there was another.
  var backend: String?

  /// The in-memory system the file saved, or a fresh one when it saved none.
  var restoredSystem: DemoSystem { system.map { DemoSystem(snapshot: $0) } ?? DemoSystem() }

  /// The `--backend` name of the backend the file was made with.
  var backendName: String { backend ?? (remote == nil ? "memory" : "git") }

  init(
    system: DemoSystemSnapshot?, session: DemoSession?, persistedGrant: AuthoringGrant?,
    workspace: WorkspaceState<EventWorkingCopy>, proposals: [ProposalRecord], remote: String? = nil,
    backend: String? = nil
  ) {
    self.version = Self.currentVersion
    self.system = system
    self.session = session
    self.persistedGrant = persistedGrant
    self.workspace = workspace
    self.proposals = proposals
    self.remote = remote
    self.backend = backend
  }

  /// The file's bytes: pretty, stable JSON.
  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(self)
  }

  /// Reads a file's bytes; every number in them must pass ``StateFileNumbers``.
  static func decode(_ data: Data) throws(StateFileError) -> StateFile {
    try StateFileNumbers.check(data)
    let file: StateFile
    do {
      file = try JSONDecoder().decode(StateFile.self, from: data)
    } catch let error as DecodingError {
      throw .corrupt(Self.explain(error))
    } catch {
      throw .corrupt(String(describing: error))
    }
    guard file.version == currentVersion else {
      throw .corrupt(
        "format version \(file.version); this demo-cli reads version \(currentVersion)")
    }
    if let broken = file.system?.firstBrokenInvariant() { throw .corrupt(broken) }
    return file
  }

  private static func explain(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
      return keys.isEmpty ? "" : " at \(keys)"
    }
    switch error {
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty ? "not valid JSON" : "invalid value\(path(context))"
    case .keyNotFound(let key, let context): return "missing \(key.stringValue)\(path(context))"
    case .typeMismatch(_, let context): return "unexpected value\(path(context))"
    case .valueNotFound(_, let context): return "missing value\(path(context))"
    @unknown default: return "unreadable contents"
    }
  }
}

/// Why a state file cannot be used. The tool prints one line and exits with status 1, leaving
/// the file as it is.
enum StateFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but cannot be read (permissions, a directory…).
  case unreadable(String)
  /// The contents are not a state file of this version.
  case corrupt(String)
  /// Writing failed.
  case unwritable(String)
  /// It is readable but not safely this user's (see ``StateFilePolicy``), or another process
  /// uses it.
  case refused(String)

  var description: String {
    switch self {
    case .unreadable(let reason): "cannot read it: \(reason)"
    case .corrupt(let reason): "it is not a usable demo-cli state file: \(reason)"
    case .unwritable(let reason): "cannot write it: \(reason)"
    case .refused(let reason): "\(reason); it was left as it is"
    }
  }
}
