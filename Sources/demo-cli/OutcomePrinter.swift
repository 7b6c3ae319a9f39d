/// Renders a ``CommandOutcome``: `✓` for results, `✗` for refusals, indented details.
struct OutcomePrinter: Sendable {
  var style: Style
  /// Put before every line (the walk indents its steps' results).
  var indent = ""

  /// The printed lines: one per outcome line, whatever its text holds (see
  /// ``Describe/oneLine(_:)``).
  func lines(_ outcome: CommandOutcome) -> [String] {
    outcome.lines.map { line in
      let text = Describe.oneLine(line.text)
      return switch line.tone {
      case .success: indent + style.green("✓") + " " + text
      case .failure: indent + style.red("✗") + " " + text
      case .info: indent + "  " + text
      case .detail: indent + "    " + style.dim(text)
      }
    }
  }

  @MainActor
  func print(_ outcome: CommandOutcome, to sink: some OutputSink) {
    for line in lines(outcome) { sink.line(line) }
  }
}
