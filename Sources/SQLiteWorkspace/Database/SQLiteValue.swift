/// One SQLite value, in SQLite's own five storage classes.
///
/// ```swift
/// try database.run("INSERT INTO events (id, title, poster) VALUES (?, ?, ?)",
///                  [.integer(7), .text("Lisboa"), .blob(pngBytes)])
/// ```
///
/// Text is UTF-8, as SQLite stores it, and two texts are equal when their bytes are (as SQLite
/// compares them: a precomposed "é" and "e" with a combining accent are two values); a blob is
/// its exact bytes.
public enum SQLiteValue: Hashable, Sendable, CustomStringConvertible {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// The value as SQL would write it (`NULL`, `7`, `'it''s'`, `X'00FF'`), for messages.
  public var description: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .text(let value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let bytes):
      "X'"
        + bytes.map { byte in
          let hex = String(byte, radix: 16, uppercase: true)
          return byte < 16 ? "0" + hex : hex
        }.joined() + "'"
    }
  }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue {
  public static func == (lhs: SQLiteValue, rhs: SQLiteValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.integer(let a), .integer(let b)): a == b
    case (.real(let a), .real(let b)): a == b
    case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
    case (.blob(let a), .blob(let b)): a == b
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .integer(let value):
      hasher.combine(1)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .text(let value):
      hasher.combine(3)
      for byte in value.utf8 { hasher.combine(byte) }
    case .blob(let bytes):
      hasher.combine(4)
      hasher.combine(bytes)
    }
  }
}
