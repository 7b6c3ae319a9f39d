/// One row's change in a ``SQLiteChangeSet``: an insert, an update or a delete, named by its
/// table and primary key.
public struct SQLiteRowChange: Hashable, Sendable, CustomStringConvertible {
  /// What happened to the row.
  public enum Kind: String, Hashable, Sendable {
    case insert, update, delete
  }

  /// The table's name.
  public var table: String
  public var kind: Kind
  /// The row's primary key, in the table's key order.
  public var primaryKey: [SQLiteValue]
  /// The row's values before the change, one per column: every column for a delete; for an
  /// update, the key and the changed columns (`nil` for a column the update left as it was);
  /// empty for an insert.
  public var oldValues: [SQLiteValue?]
  /// The row's values after the change, one per column: every column for an insert; for an
  /// update, the changed columns (`nil` elsewhere); empty for a delete.
  public var newValues: [SQLiteValue?]

  public init(
    table: String, kind: Kind, primaryKey: [SQLiteValue], oldValues: [SQLiteValue?],
    newValues: [SQLiteValue?]
  ) {
    self.table = table
    self.kind = kind
    self.primaryKey = primaryKey
    self.oldValues = oldValues
    self.newValues = newValues
  }

  /// The row's identity: its table and primary key.
  public var row: SQLiteRowID { SQLiteRowID(table: table, primaryKey: primaryKey) }

  /// `update events (7)`.
  public var description: String {
    "\(kind.rawValue) \(table) (\(primaryKey.map(\.description).joined(separator: ", ")))"
  }
}

/// A row named by its table and primary key.
public struct SQLiteRowID: Hashable, Sendable, CustomStringConvertible {
  public var table: String
  public var primaryKey: [SQLiteValue]

  public init(table: String, primaryKey: [SQLiteValue]) {
    self.table = table
    self.primaryKey = primaryKey
  }

  /// `events (7)`.
  public var description: String {
    "\(table) (\(primaryKey.map(\.description).joined(separator: ", ")))"
  }
}
