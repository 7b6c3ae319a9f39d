import FossilWorkspace
import Foundation
import WorkspaceDemoFeature

/// How the catalogue lives in a Fossil repository: one file, `catalogue.json`, holding every
/// event as pretty JSON with sorted keys, in the catalogue's order (ids compared as numbers,
/// `e2` before `e10`), with a final newline — the same events always make the same bytes.
enum CatalogueFile {
  /// The file's path in the repository.
  static let path = "catalogue.json"

  /// The file's bytes for `events`.
  static func encoded(_ events: some Sequence<Event>) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let ordered = events.sorted {
      $0.id.compare($1.id, options: [.numeric, .literal]) == .orderedAscending
    }
    return try encoder.encode(ordered) + Data("\n".utf8)
  }

  /// The events the file's bytes hold.
  static func decoded(_ data: Data) throws(CatalogueFileError) -> [Event] {
    let events: [Event]
    do {
      events = try JSONDecoder().decode([Event].self, from: data)
    } catch {
      throw .unreadable("it does not hold a list of events as JSON")
    }
    var seen = Set<String>()
    for event in events where !seen.insert(event.id).inserted {
      throw .unreadable("it holds the event \(event.id) twice")
    }
    return events
  }
}

extension FossilReader {
  /// The catalogue file's bytes in check-in `revision`.
  func catalogueData(at revision: String) async throws -> Data {
    guard let data = try await contents(of: CatalogueFile.path, at: revision) else {
      throw CatalogueFileError.unreadable("check-in \(revision) has no \(CatalogueFile.path)")
    }
    return data
  }
}

/// The catalogue file cannot be used.
enum CatalogueFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is missing or does not hold events (and why).
  case unreadable(String)

  var description: String {
    switch self {
    case .unreadable(let reason): "\(CatalogueFile.path) cannot be read: \(reason)"
    }
  }
}
