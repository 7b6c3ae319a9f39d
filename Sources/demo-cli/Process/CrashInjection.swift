import Foundation
import WorkspaceJournal

/// A test-only way to kill demo-cli (SIGKILL, by itself) at one step of a publication, so a
/// test can prove that a crash at any step leaves exactly one proposal after the restart.
///
/// It acts only in debug builds, and only when the environment holds
/// `DEMO_CLI_TEST_CRASH=sigkill-at:<step>` with one of the ``Step`` names — a variable no one
/// sets by accident, read once at start. Otherwise every ``at(_:)`` does nothing; a release
/// build has no way to arm it.
///
/// ```sh
/// DEMO_CLI_TEST_CRASH=sigkill-at:after-intent demo-cli --state s.json repl <<< 'propose Talk'
/// ```
enum CrashInjection {
  /// Where a publication can be killed (in the order they are passed): the journal's
  /// checkpoints, then the tool's own around saving and printing.
  enum Step: String, CaseIterable, Sendable {
    case beforeIntent = "before-intent"
    case afterIntent = "after-intent"
    case afterAnswer = "after-answer"
    case afterRecord = "after-record"
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
    #if DEBUG
      guard let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix(prefix)
      else { return nil }
      return Step(rawValue: String(value.dropFirst(prefix.count)))
    #else
      return nil
    #endif
  }()

  /// The journal's checkpoint hook: `nil` unless a step is armed (so an unarmed run installs
  /// no hook at all).
  static var journalCheckpoint: (@Sendable (JournalingCheckpoint) -> Void)? {
    guard armed != nil else { return nil }
    return { checkpoint in
      if let step = Step(rawValue: checkpoint.rawValue) { at(step) }
    }
  }

  /// Kills the process here if the test asked for `step`.
  static func at(_ step: Step) {
    guard armed == step else { return }
    kill(getpid(), SIGKILL)
    while true { pause() }
  }
}
