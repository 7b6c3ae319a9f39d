/// One entry of the published event catalogue.
public struct Event: Identifiable, Codable, Sendable, Hashable {
  public var id: String
  public var title: String
  /// The day, as an ISO 8601 date ("2026-12-05").
  public var date: String
  public var venue: String

  public init(id: String, title: String, date: String, venue: String) {
    self.id = id
    self.title = title
    self.date = date
    self.venue = venue
  }
}

extension Event: CustomStringConvertible {
  public var description: String { "\(id) “\(title)” \(date) @ \(venue)" }
}
