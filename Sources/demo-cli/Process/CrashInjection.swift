import Foundation

/// A test-only way to kill demo-cli (SIGKILL, by itself) at one step of a publication, so a
/// test can prove that a crash at any step leaves exactly one proposal after the restart.
///
/// It acts only when the environment holds `DEMO_CLI_TEST_CRASH=sigkill-at:<step>` with one
/// of the ``Step`` names — a variable no one sets by accident, read once at start. Without it
/// every ``at(_:)`` does nothing.
///
/// ```sh
/// DEMO_CLI_TEST_CRASH=sigkill-at:after-intent demo-cli --state s.json repl <<< 'propose Talk'
/// ```
enum CrashInjection {
  /// Where a publication can be killed (in the order they are passed).
  enum Step: String, CaseIterable, Sendable {
    /// Before the attempt's intent is written.
    case beforeIntent = "before-intent"
    /// After the intent is durable, before the backend is asked.
    case afterIntent = "after-intent"
    /// After the backend answered the record, before the application has it.
    case afterAnswer = "after-answer"
    /// After the command, before the state file is rewritten with its outcome.
    case beforeSave = "before-save"
    /// After the state file was rewritten, before the outcome is printed.
    case afterSave = "after-save"
    /// After the outcome (the ✓) was printed.
    case afterPrint = "after-print"
  }

  /// The environment variable, and the prefix its value must have.
  static let variable = "DEMO_CLI_TEST_CRASH"
  static let prefix = "sigkill-at:"

  private static let armed: Step? = {
    guard let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix(prefix)
    else { return nil }
    return Step(rawValue: String(value.dropFirst(prefix.count)))
  }()

  /// Kills the process here if the test asked for `step`.
  static func at(_ step: Step) {
    guard armed == step else { return }
    kill(getpid(), SIGKILL)
    while true { pause() }
  }
}
