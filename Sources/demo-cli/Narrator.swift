/// Writes the walk's transcript: numbered steps with their results, and a summary.
@MainActor
final class Narrator {
  private let sink: any OutputSink
  private let style: Style
  private let printer: OutcomePrinter
  private var step = 0

  init(sink: any OutputSink, style: Style) {
    self.sink = sink
    self.style = style
    self.printer = OutcomePrinter(style: style, indent: "    ")
  }

  func title(_ text: String) {
    sink.line(style.bold(text))
  }

  /// Starts the next numbered step.
  func step(_ text: String) {
    step += 1
    sink.line("")
    let number = step < 10 ? " \(step)" : "\(step)"
    sink.line(style.bold("\(number). \(text)"))
  }

  /// A section without a number.
  func section(_ text: String) {
    sink.line("")
    sink.line(style.bold(text))
  }

  func outcome(_ outcome: CommandOutcome) {
    for line in printer.lines(outcome) { sink.line(line) }
  }

  /// A sentence of narration under the current step.
  func note(_ text: String) {
    sink.line("      " + style.dim(text))
  }

  /// A line of the summary.
  func summary(_ text: String) {
    sink.line("  " + text)
  }

  /// A check of the story's promise: `✓ …` or `✗ …`.
  func check(_ passed: Bool, _ text: String) {
    sink.line("  " + (passed ? style.green("✓") : style.red("✗")) + " " + text)
  }

  func failure(_ text: String) {
    sink.line("")
    sink.line(style.red("✗") + " " + text)
  }
}
