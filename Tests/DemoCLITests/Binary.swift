import Foundation
import Testing

@testable import ProcessSupport

/// The built `demo-cli` executable (beside the test bundle), run as a separate process: for
/// what only a real process shows (its exit status or the signal that ended it, its streams,
/// a SIGKILL at a chosen step).
enum DemoCLIBinary {
  /// The executable's path.
  static let path: String = {
    let tests =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: tests).deletingLastPathComponent()
      .appendingPathComponent("demo-cli").path
  }()

  /// The process's environment, with `extra` on top.
  static func environment(_ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
  }

  /// Runs `demo-cli ARGUMENTS` with `input` as its standard input.
  static func run(
    _ arguments: [String], input: String = "", environment extra: [String: String] = [:]
  ) async throws -> ProcessResult {
    try #require(
      FileManager.default.isExecutableFile(atPath: path),
      "demo-cli was not built next to the tests (\(path)); run swift build --build-tests")
    return try await bounded {
      try await ProcessRunner().run(
        URL(fileURLWithPath: path), arguments: arguments, environment: environment(extra),
        input: Data(input.utf8))
    }
  }

  /// Runs `script` with `/bin/sh -c`, `$0` being the demo-cli executable and `$1…` the
  /// `arguments`.
  static func shell(
    _ script: String, _ arguments: [String] = [], input: String = "",
    environment extra: [String: String] = [:]
  ) async throws -> ProcessResult {
    try #require(
      FileManager.default.isExecutableFile(atPath: path), "demo-cli was not built (\(path))")
    return try await bounded {
      try await ProcessRunner().run(
        URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script, path] + arguments,
        environment: environment(extra), input: Data(input.utf8))
    }
  }

  /// The longest a test waits for one run before it ends it (SIGTERM, then SIGKILL) and fails.
  static let timeLimit = Duration.seconds(90)

  /// Runs `operation`, cancelled after ``timeLimit`` (a run that hangs fails, never hangs).
  static func bounded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await Task.sleep(for: timeLimit)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let result = first else {
        Issue.record("demo-cli did not finish within \(timeLimit); it was terminated")
        throw CancellationError()
      }
      return result
    }
  }

  /// Starts `demo-cli ARGUMENTS` with a standard input the test writes to (and keeps open
  /// until it closes it), for a process that must be running when the test acts on it.
  static func start(_ arguments: [String], environment extra: [String: String] = [:]) async throws
    -> RunningDemoCLI
  {
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
    _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
    defer { close(descriptors[0]) }
    let child = try await ChildProcess.spawn(
      executable: path, arguments: arguments, environment: environment(extra),
      input: descriptors[0])
    return RunningDemoCLI(child: child, input: descriptors[1])
  }
}

/// A demo-cli process the test started.
final class RunningDemoCLI: @unchecked Sendable {
  let child: ChildProcess
  private var input: Int32

  init(child: ChildProcess, input: Int32) {
    self.child = child
    self.input = input
  }

  var pid: pid_t { child.pid }

  /// Writes `line` and a newline to its standard input.
  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
  }

  /// Closes its standard input, waits for it to end and answers how it ended. Bounded: after
  /// ``DemoCLIBinary/timeLimit`` the process is killed and the test fails.
  func finish() async throws -> ProcessResult {
    if input >= 0 {
      close(input)
      input = -1
    }
    let child = self.child
    let collecting = Task.detached { child.collect() }
    return try await DemoCLIBinary.bounded {
      await withTaskCancellationHandler {
        await collecting.value
      } onCancel: {
        kill(child.pid, SIGKILL)
      }
    }
  }
}
