import Foundation

/// What the tool needs to know about its process: whether its streams are terminals, and its
/// environment. Injected, so tests can pretend either way.
struct Terminal: Sendable {
  var inputIsTerminal: Bool
  var outputIsTerminal: Bool
  var environment: [String: String]

  /// The real process.
  static var current: Terminal {
    Terminal(
      inputIsTerminal: isatty(STDIN_FILENO) == 1,
      outputIsTerminal: isatty(STDOUT_FILENO) == 1,
      environment: ProcessInfo.processInfo.environment
    )
  }

  /// The style to print with.
  var style: Style { Style.detect(environment: environment, outputIsTerminal: outputIsTerminal) }
}
