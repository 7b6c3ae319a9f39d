import Foundation

/// Where the tool writes: standard output for results, standard error for process-level errors
/// (usage, an unreadable state file). Injected, so tests capture the text.
@MainActor
protocol OutputSink: AnyObject {
  /// Writes `text` to standard output as it is (no newline is added).
  func write(_ text: String)
  /// Writes `text` to standard error as it is.
  func writeError(_ text: String)
}

extension OutputSink {
  /// Writes one line to standard output.
  func line(_ text: String = "") { write(text + "\n") }
  /// Writes one line to standard error.
  func errorLine(_ text: String) { writeError(text + "\n") }
}

/// The process's standard output and error, written unbuffered so that the two streams keep
/// their order when they go to the same place.
@MainActor
final class StandardStreams: OutputSink {
  func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// Collects everything written, for tests.
@MainActor
final class CapturedOutput: OutputSink {
  private(set) var output = ""
  private(set) var errors = ""

  func write(_ text: String) { output += text }
  func writeError(_ text: String) { errors += text }
}
