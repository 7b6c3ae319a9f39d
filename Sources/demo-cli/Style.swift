/// How text is decorated: ANSI colours on a terminal, plain text otherwise.
struct Style: Sendable, Equatable {
  /// Whether ANSI escape sequences are written.
  var usesColor: Bool

  static let plain = Style(usesColor: false)
  static let color = Style(usesColor: true)

  /// Colour when standard output is a terminal and `NO_COLOR` is not set to a non-empty value
  /// (no-color.org: an empty `NO_COLOR` does not turn colour off).
  static func detect(environment: [String: String], outputIsTerminal: Bool) -> Style {
    Style(usesColor: outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty)
  }

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func cyan(_ text: String) -> String { wrap(text, "36") }

  private func wrap(_ text: String, _ code: String) -> String {
    usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
