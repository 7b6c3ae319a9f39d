/// A moment of a journaled publication, in the order they pass: where a test (or a host's
/// crash-injection tool) may look, or stop the process, to prove that a crash there loses
/// nothing and doubles nothing. Release code installs no checkpoint.
public enum JournalingCheckpoint: String, CaseIterable, Sendable {
  /// Before the attempt's intent is written.
  case beforeIntent = "before-intent"
  /// After the intent is durable, before the client is asked.
  case afterIntent = "after-intent"
  /// After the client answered the record, before the journal keeps it.
  case afterAnswer = "after-answer"
  /// After the journal kept the record, before the application has it.
  case afterRecord = "after-record"
}
