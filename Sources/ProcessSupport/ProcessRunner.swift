import ComposableCore
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a child process asynchronously, without blocking any thread of the caller's actor.
///
/// The child is spawned directly (`posix_spawn`), with an empty signal mask and its own
/// process group. Its standard output and standard error are drained concurrently while it
/// runs (so a chatty process can never fill a pipe and deadlock), and one continuation is
/// resumed when both pipes reached end of file and the child was reaped. No
/// `waitUntilExit()` is used anywhere.
///
/// Cancelling the calling task sends SIGTERM to the child's process group (SIGKILL after three
/// seconds if it is still there) and the call throws `CancellationError`.
///
/// ```swift
/// let result = try await ProcessRunner().run(
///   URL(fileURLWithPath: "/usr/bin/env"), arguments: ["git", "--version"]
/// )
/// ```
public struct ProcessRunner: Sendable {
  /// The first executable file named `name` in the directories of `PATH` (`/usr/bin:/bin`
  /// when it is unset), or `nil`.
  public static func findOnPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  public init() {}

  /// Runs `executable` with `arguments` and answers how it ended.
  ///
  /// - Parameters:
  ///   - executable: the program to run (a path, not looked up in `PATH`).
  ///   - arguments: its arguments, without the program name.
  ///   - environment: the complete environment of the child; `nil` inherits this process's.
  ///   - currentDirectory: the child's working directory (entered by `/bin/sh` just before it
  ///     `exec`s the executable; this process's own working directory never changes); `nil`
  ///     inherits this process's.
  ///   - input: the child's standard input (served from an unlinked temporary file, so a
  ///     child that exits without reading it can neither block nor raise SIGPIPE); `nil`
  ///     connects standard input to `/dev/null`.
  ///   - termination: who cancellation's signals reach: the child's whole process group (the
  ///     default), or the child alone (`.processOnly`, for a child whose own children belong
  ///     to someone else, such as `git push` to a local repository, whose `git receive-pack`
  ///     and hooks run the remote's side).
  /// - Returns: the exit status and both outputs. A non-zero status is not an error here.
  /// - Throws: ``ProcessLaunchError`` when the process cannot be started; `CancellationError`
  ///   when the calling task was cancelled (the process is terminated).
  public func run(
    _ executable: URL,
    arguments: [String],
    environment: [String: String]? = nil,
    currentDirectory: URL? = nil,
    input: Data? = nil,
    termination: ProcessTermination = .processGroup
  ) async throws -> ProcessResult {
    try Task.checkCancellation()
    var path = executable.path
    var arguments = arguments
    if let currentDirectory {
      arguments =
        ["-c", "cd -- \"$0\" || exit 127; exec \"$@\"", currentDirectory.path, path] + arguments
      path = "/bin/sh"
    }
    let inputDescriptor = try input.map(Self.inputFile)
    defer { if let inputDescriptor { close(inputDescriptor) } }
    let child = try await ChildProcess.spawn(
      executable: path, arguments: arguments,
      environment: environment ?? ProcessInfo.processInfo.environment, input: inputDescriptor,
      termination: termination)
    let result = await withTaskCancellationHandler {
      // `collect` blocks until the child exits.
      await withBlockingWork("ProcessRunner.collect") { child.collect() }
    } onCancel: {
      child.terminate()
    }
    try Task.checkCancellation()
    return result
  }

  /// Ends every child process this process started and has not reaped yet: SIGTERM to each
  /// one's process group, SIGKILL to those still there after `grace` seconds. Returns when they
  /// are gone, or after twice `grace`. It blocks the calling thread: for a process that is about
  /// to exit (on SIGTERM, say) and must not leave children writing into folders it removes.
  ///
  /// ```swift
  /// ProcessRunner.terminateAllChildren()
  /// try? FileManager.default.removeItem(at: scratch)
  /// ```
  public static func terminateAllChildren(grace: TimeInterval = 2) {
    ChildProcess.terminateAll(grace: grace)
  }

  /// A descriptor, at offset 0, on an already unlinked temporary file holding `input`. The file
  /// is created exclusively and readable by its owner only, so no other user sees the input.
  static func inputFile(_ input: Data) throws -> Int32 {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("process-input-\(UUID().uuidString)").path
    let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ProcessLaunchError(executable: path, reason: String(cString: strerror(errno)))
    }
    unlink(path)
    guard FileDescriptorWriting.writeAll(input, to: descriptor), lseek(descriptor, 0, SEEK_SET) == 0
    else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw ProcessLaunchError(executable: path, reason: reason)
    }
    return descriptor
  }
}
