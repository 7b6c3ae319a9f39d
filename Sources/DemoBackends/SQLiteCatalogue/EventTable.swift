import Foundation
import SQLiteWorkspace
import WorkspaceDemoFeature

/// How the demo's catalogue lives in a database: one row per event in `events`, keyed by its
/// id. Shared by the SQLite backend (its working databases) and the reference server (its
/// revisions, with `serve --database`).
///
/// ```text
/// sqlite> select * from events;
/// e1|Winter Concert|2026-12-12|Town Hall
/// ```
public enum EventTable {
  public static let schema = """
    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      date TEXT NOT NULL,
      venue TEXT NOT NULL
    )
    """

  public static let selection = "SELECT id, title, date, venue FROM events"

  /// The events of `rows` (as ``selection`` reads them), in the catalogue's order: by id,
  /// numbers compared as numbers (`e2` before `e10`).
  public static func events(_ rows: [[SQLiteValue]]) throws(EventTableError) -> [Event] {
    let events = try rows.map { row throws(EventTableError) in
      guard row.count == 4, case .text(let id) = row[0], case .text(let title) = row[1],
        case .text(let date) = row[2], case .text(let venue) = row[3]
      else { throw .unreadableRow(row.map(\.description).joined(separator: ", ")) }
      return Event(id: id, title: title, date: date, venue: venue)
    }
    return events.sorted {
      $0.id.compare($1.id, options: [.numeric, .literal]) == .orderedAscending
    }
  }

  /// The events in `db`.
  public static func events(in db: SQLiteConnection) throws -> [Event] {
    try events(try db.rows(selection))
  }

  /// Makes the table hold exactly `events`, changing only the rows that differ.
  public static func write(_ events: [Event], to db: SQLiteConnection) throws {
    let current = Dictionary(
      try Self.events(in: db).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let wanted = Set(events.map(\.id))
    for id in current.keys where !wanted.contains(id) {
      try db.run("DELETE FROM events WHERE id = ?", [.text(id)])
    }
    for event in events where current[event.id] != event {
      try db.run(
        "INSERT OR REPLACE INTO events (id, title, date, venue) VALUES (?, ?, ?, ?)",
        [.text(event.id), .text(event.title), .text(event.date), .text(event.venue)])
    }
  }
}

/// A row of `events` that is not an event.
public enum EventTableError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreadableRow(String)

  public var description: String {
    switch self {
    case .unreadableRow(let row): "a row of the events table is not an event: (\(row))"
    }
  }
}
