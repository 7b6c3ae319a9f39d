import ComposableWorkspace
import Foundation

/// A `git` command that failed: which command, its exit status, and git's own message.
///
/// Every failure of the Git integration that comes from git itself (no such remote, not a
/// repository, authentication refused, a rejected push…) surfaces as this error, never as a
/// crash. Its `errorDescription` (and so a `WorkspaceFailure` built from it) names the git
/// subcommand, not its whole command line (refspecs and leases are noise to a reader), and
/// reads like:
///
/// ```text
/// git fetch failed (exit 128): fatal: '/tmp/nowhere.git' does not appear to be a git repository
/// git push was killed by signal 9 (SIGKILL)
/// ```
public struct GitError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
  /// The git arguments of the failed command (after `git` and its `-c` settings).
  public var arguments: [String]
  /// The exit status; `-1` when git could not be started at all; the signal's number when a
  /// signal killed it (see ``signal``).
  public var status: Int32
  /// The signal that killed git, or `nil` when it exited by itself (or never started).
  public var signal: Int32?
  /// Git's own message (its standard error, trimmed, lines separated by `\n` whatever they
  /// ended with), or why it could not be started.
  public var message: String

  public init(arguments: [String], status: Int32, signal: Int32? = nil, message: String) {
    self.arguments = arguments
    self.status = status
    self.signal = signal
    self.message = message
  }

  /// The failed command as one line, `git …` (for logs; ``description`` names only the
  /// subcommand).
  public var command: String { (["git"] + arguments).joined(separator: " ") }

  /// `git <subcommand>`: the first argument that is not an option.
  public var subcommand: String {
    "git" + (arguments.first { !$0.hasPrefix("-") }.map { " " + $0 } ?? "")
  }

  public var description: String {
    let detail = message.isEmpty ? "" : ": \(message)"
    if status < 0 { return "\(subcommand) could not be run\(detail)" }
    if let signal { return "\(subcommand) was killed by \(Self.name(ofSignal: signal))\(detail)" }
    return "\(subcommand) failed (exit \(status))\(detail)"
  }

  /// `signal 9 (SIGKILL)`.
  static func name(ofSignal signal: Int32) -> String {
    let names: [Int32: String] = [
      1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV",
      13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]
    return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
  }

  /// Git's output as one message: CRLF and CR line ends (an ssh client's) become `\n`,
  /// surrounding blank space is trimmed.
  static func message(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  public var errorDescription: String? { description }

  /// Whether git's message says the remote could not be reached or asked to retry, as opposed
  /// to a definite answer (no such repository, authentication refused, a rejected update).
  public var isTransportFailure: Bool {
    let text = message.lowercased()
    guard !Self.definiteMarkers.contains(where: { text.contains($0) }) else { return false }
    return Self.transientMarkers.contains { text.contains($0) }
  }

  /// A remote that answered "no" was reached, whatever git says about the connection after.
  private static let definiteMarkers = [
    "[rejected]", "stale info", "atomic push failed", "[remote rejected]",
  ]

  private static let transientMarkers = [
    "could not resolve host", "connection timed out", "connection refused",
    "operation timed out", "timed out after", "network is unreachable", "connection reset",
    "the remote end hung up unexpectedly", "early eof", "rpc failed",
    "the requested url returned error: 502", "the requested url returned error: 503",
    "the requested url returned error: 504", "temporary failure in name resolution",
  ]
}

/// A ``GitError`` that means the remote could not be reached (a timeout, a dropped connection,
/// a 5xx answer): trying the same operation again may work.
///
/// It conforms to `WorkspaceTransientError`, so `Workspace` retries `publishProposal` on it
/// with the same idempotency key — safe, because publication is create-only and
/// lease-guarded.
public struct GitTransportError: WorkspaceTransientError, Hashable, Sendable, LocalizedError,
  CustomStringConvertible
{
  /// The failed command and git's message.
  public var underlying: GitError

  public init(_ underlying: GitError) {
    self.underlying = underlying
  }

  public var description: String { "The Git remote could not be reached: \(underlying)" }

  public var errorDescription: String? { description }
}
