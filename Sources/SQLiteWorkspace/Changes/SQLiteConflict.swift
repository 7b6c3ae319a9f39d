/// A row a changeset could not be applied to as it was captured.
public struct SQLiteConflict: Hashable, Sendable, CustomStringConvertible {
  /// Why the row conflicts.
  public enum Reason: String, Hashable, Sendable {
    /// The row was changed on both sides.
    case changedOnBothSides = "changed on both sides"
    /// The change updates or deletes a row the other side deleted.
    case deletedOnOtherSide = "deleted on the other side"
    /// The change inserts a row whose key the other side also inserted.
    case insertedOnBothSides = "inserted on both sides"
    /// Applying the change would break a constraint (`UNIQUE`, `NOT NULL`, `CHECK`, a foreign
    /// key).
    case constraint = "breaks a constraint"
  }

  public var row: SQLiteRowID
  public var reason: Reason

  public init(row: SQLiteRowID, reason: Reason) {
    self.row = row
    self.reason = reason
  }

  /// `events (7): changed on both sides`.
  public var description: String { "\(row): \(reason.rawValue)" }
}
