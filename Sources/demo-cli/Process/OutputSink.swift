import Foundation
import ProcessSupport

/// Where the tool writes: standard output for results, standard error for process-level errors
/// (usage, an unreadable state file). Injected, so tests capture the text.
@MainActor
protocol OutputSink: AnyObject {
  /// Writes `text` to standard output as it is (no newline is added).
  func write(_ text: String)
  /// Writes `text` to standard error as it is.
  func writeError(_ text: String)
  /// Whether standard output can no longer be written (full disk, closed, a reader gone): the
  /// tool stops, saves what it must, and exits with status 1.
  var isBroken: Bool { get }
}

extension OutputSink {
  /// Writes one line to standard output.
  func line(_ text: String = "") { write(text + "\n") }
  /// Writes one line to standard error.
  func errorLine(_ text: String) { writeError(text + "\n") }
}

/// The process's standard output and error, written unbuffered (`write(2)`) so that the two
/// streams keep their order when they go to the same place.
///
/// A failed write never traps: the first failure on standard output is reported on standard
/// error in one line (`demo-cli: cannot write to standard output: No space left on device`),
/// except a reader that went away (`EPIPE`, with SIGPIPE ignored), which ends the tool quietly;
/// from then on output is dropped and ``isBroken`` is true.
@MainActor
final class StandardStreams: OutputSink {
  private(set) var isBroken = false
  private var errorIsBroken = false
  /// Standard output was closed when the process started (its number now holds /dev/null).
  private let outputWasClosed: Bool

  init(outputWasClosed: Bool = false) {
    self.outputWasClosed = outputWasClosed
  }

  func write(_ text: String) {
    guard !isBroken else { return }
    let failure = outputWasClosed ? EBADF : Self.writeAll(text, to: STDOUT_FILENO)
    guard failure != 0 else { return }
    isBroken = true
    if failure != EPIPE {
      let reason = String(cString: strerror(failure))
      writeError("demo-cli: cannot write to standard output: \(reason)\n")
    }
  }

  func writeError(_ text: String) {
    guard !errorIsBroken else { return }
    errorIsBroken = Self.writeAll(text, to: STDERR_FILENO) != 0
  }

  /// Writes every byte of `text`; answers `0`, or the `errno` of the failure.
  private static func writeAll(_ text: String, to descriptor: Int32) -> Int32 {
    FileDescriptorWriting.writeAll(Array(text.utf8), to: descriptor) ? 0 : errno
  }
}

/// Collects everything written, for tests.
@MainActor
final class CapturedOutput: OutputSink {
  private(set) var output = ""
  private(set) var errors = ""
  var isBroken: Bool { false }

  func write(_ text: String) { output += text }
  func writeError(_ text: String) { errors += text }
}
