/// A table's shape as the workspace compares it: its name, columns and primary key.
struct SQLiteTableShape: Hashable, Sendable {
  struct Column: Hashable, Sendable {
    var name: String
    var declaredType: String
    /// 1-based position in the primary key; 0 when the column is not part of it.
    var primaryKeyPosition: Int
  }

  var name: String
  var columns: [Column]

  var hasPrimaryKey: Bool { columns.contains { $0.primaryKeyPosition > 0 } }

  /// The user tables of `schema` (`main`, `baseline`, …) on `connection`, by name; SQLite's
  /// own tables and `excluded` are left out.
  static func tables(
    in schema: String, of connection: SQLiteConnection, excluding excluded: Set<String> = []
  ) throws -> [String: SQLiteTableShape] {
    let names = try connection.rows(
      "SELECT name FROM \(SQLiteName.quoted(schema)).sqlite_schema "
        + "WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    var tables: [String: SQLiteTableShape] = [:]
    for row in names {
      guard case .text(let name) = row[0], !excluded.contains(name) else { continue }
      let info = try connection.rows(
        "SELECT name, type, pk FROM pragma_table_info(?, ?) ORDER BY cid",
        [.text(name), .text(schema)])
      let columns = info.map { column in
        Column(
          name: column[0].textValue, declaredType: column[1].textValue,
          primaryKeyPosition: column[2].integerValue.map(Int.init) ?? 0)
      }
      tables[name] = SQLiteTableShape(name: name, columns: columns)
    }
    return tables
  }
}

extension SQLiteValue {
  /// The text of a text value; "" for any other.
  var textValue: String {
    if case .text(let text) = self { return text }
    return ""
  }

  /// The integer of an integer value.
  var integerValue: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }
}
