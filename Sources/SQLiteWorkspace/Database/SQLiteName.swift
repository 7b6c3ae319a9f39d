/// SQL identifiers written safely into statements.
enum SQLiteName {
  /// `name` as a quoted SQL identifier: `"events"`, `"odd""name"`.
  static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
