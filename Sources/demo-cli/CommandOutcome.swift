/// What running one command came to: the lines to print and whether it failed.
struct CommandOutcome: Equatable, Sendable {
  /// How a line reads.
  enum Tone: Equatable, Sendable {
    /// A result: something happened as asked.
    case success
    /// Why the command did not do what was asked.
    case failure
    /// State worth knowing.
    case info
    /// Indented detail (events, change set lines).
    case detail
  }

  struct Line: Equatable, Sendable {
    var tone: Tone
    var text: String
  }

  var lines: [Line] = []
  /// Whether the command failed (bad input, refused, or not possible now).
  var failed = false
  /// Whether the shell should end.
  var quits = false

  static func success(_ text: String) -> Self { Self(lines: [Line(tone: .success, text: text)]) }
  static func failure(_ text: String) -> Self {
    Self(lines: [Line(tone: .failure, text: text)], failed: true)
  }
  static func info(_ text: String) -> Self { Self(lines: [Line(tone: .info, text: text)]) }

  mutating func success(_ text: String) { lines.append(Line(tone: .success, text: text)) }
  mutating func info(_ text: String) { lines.append(Line(tone: .info, text: text)) }
  mutating func detail(_ text: String) { lines.append(Line(tone: .detail, text: text)) }
  mutating func fail(_ text: String) {
    lines.append(Line(tone: .failure, text: text))
    failed = true
  }

  /// The lines as plain text (for tests and logs).
  var text: String { lines.map(\.text).joined(separator: "\n") }
}
