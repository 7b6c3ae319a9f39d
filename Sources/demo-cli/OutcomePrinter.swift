/// Renders a ``CommandOutcome``: `✓` for results, `✗` for refusals, indented details.
struct OutcomePrinter: Sendable {
  var style: Style
  /// Put before every line (the walk indents its steps' results).
  var indent = ""

  func lines(_ outcome: CommandOutcome) -> [String] {
    outcome.lines.map { line in
      switch line.tone {
      case .success: indent + style.green("✓") + " " + line.text
      case .failure: indent + style.red("✗") + " " + line.text
      case .info: indent + "  " + line.text
      case .detail: indent + "    " + style.dim(line.text)
      }
    }
  }

  @MainActor
  func print(_ outcome: CommandOutcome, to sink: some OutputSink) {
    for line in lines(outcome) { sink.line(line) }
  }
}
