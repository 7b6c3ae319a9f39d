/// Who the signals that end a child process reach (on cancellation, or when the process ends
/// every child it started).
///
/// ```swift
/// // `git push` to a local path runs the remote's receive-pack and hooks as its children:
/// // signal git alone, and they finish (or abort) the remote's transaction themselves.
/// try await ProcessRunner().run(git, arguments: ["push", …], termination: .processOnly)
/// ```
public enum ProcessTermination: Sendable, Hashable {
  /// The child's process group: the child and every process it started (the default, so a
  /// cancelled command's own helpers stop too).
  case processGroup
  /// The child alone: its children see it end (their pipes close) and end by themselves.
  case processOnly
}
