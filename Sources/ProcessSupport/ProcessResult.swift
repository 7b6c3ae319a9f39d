import Foundation

/// What a finished process left behind: its exit status and everything it wrote.
///
/// ```swift
/// let result = try await ProcessRunner().run(URL(fileURLWithPath: "/bin/echo"), arguments: ["hi"])
/// result.status      // 0
/// result.outputText  // "hi\n"
/// ```
public struct ProcessResult: Hashable, Sendable {
  /// The exit status (or the terminating signal's number when the process was killed; see
  /// ``signal``).
  public var status: Int32
  /// The signal that killed the process, or `nil` when it exited by itself.
  public var signal: Int32?
  /// Everything the process wrote to standard output.
  public var standardOutput: Data
  /// Everything the process wrote to standard error.
  public var standardError: Data

  public init(status: Int32, signal: Int32? = nil, standardOutput: Data, standardError: Data) {
    self.status = status
    self.signal = signal
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  /// Standard output decoded as UTF-8 (invalid bytes replaced).
  public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }

  /// Standard error decoded as UTF-8 (invalid bytes replaced).
  public var errorText: String { String(decoding: standardError, as: UTF8.self) }
}

/// The process could not be started at all (no such executable, not executable, bad working
/// directory). A process that started and failed is a ``ProcessResult`` with a non-zero status.
public struct ProcessLaunchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The executable that could not be started.
  public var executable: String
  /// Why, as Foundation reported it.
  public var reason: String

  public init(executable: String, reason: String) {
    self.executable = executable
    self.reason = reason
  }

  public var description: String { "could not start \(executable): \(reason)" }
}
