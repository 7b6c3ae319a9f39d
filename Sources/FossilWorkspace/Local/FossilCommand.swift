import Foundation
import ProcessSupport

/// One configured way of running the `fossil` executable, for what only a local repository
/// file allows: creating and administering a repository, serving it (``LocalFossilServer``).
/// The workspace client runs it on its local clone (``FossilWorkspaceClient``).
///
/// Children are spawned by `GitWorkspace.ProcessRunner` (`posix_spawn`, their own process group,
/// dying with this process). Nothing secret is ever in their arguments or environment: a
/// password reaches a repository only as its hash, through standard input
/// (``LocalFossilRepository/setPassword(_:of:)``).
///
/// ```swift
/// let fossil = FossilCommand(home: scratch)     // its global settings stay in `scratch`
/// let result = try await fossil.run(["version"])
/// ```
public struct FossilCommand: Sendable {
  /// The `fossil` executable (the first on `PATH` by default).
  public var executable: URL
  /// `FOSSIL_HOME`: where fossil keeps its global configuration (`nil`: the user's home).
  public var home: URL?
  /// The user fossil records as acting (`FOSSIL_USER`), for commands that need one.
  public var user: String

  /// A runner for `executable`, or the first `fossil` on `PATH` (`/usr/bin/fossil` when none).
  public init(executable: URL? = nil, home: URL? = nil, user: String = "workspace-admin") {
    self.executable =
      executable ?? ProcessRunner.findOnPath("fossil") ?? URL(fileURLWithPath: "/usr/bin/fossil")
    self.home = home
    self.user = user
  }

  /// Runs `fossil <arguments>` and answers its result.
  ///
  /// - Parameters:
  ///   - arguments: fossil's arguments, without the program name.
  ///   - directory: the child's working directory (a check-out), or this process's.
  ///   - input: written to standard input.
  ///   - allowingFailure: answers a failure status instead of throwing it.
  /// - Throws: ``FossilCommandError`` when fossil cannot be started or exits with a failure
  ///   status; `CancellationError` when the task was cancelled (fossil is terminated).
  @discardableResult
  public func run(
    _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
    allowingFailure: Bool = false
  ) async throws -> ProcessResult {
    let result: ProcessResult
    do {
      result = try await ProcessRunner().run(
        executable, arguments: arguments, environment: environment, currentDirectory: directory,
        input: input)
    } catch let launch as ProcessLaunchError {
      throw FossilCommandError(arguments: arguments, status: -1, message: launch.description)
    }
    guard allowingFailure || (result.signal == nil && result.status == 0) else {
      let message =
        [result.errorText, result.outputText]
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .first { !$0.isEmpty } ?? "no message"
      throw FossilCommandError(
        arguments: arguments, status: result.signal ?? result.status, message: message)
    }
    return result
  }

  /// Opens a check-out of `revision` of `repository` in a new scratch folder inside `folder`,
  /// runs `body` in it, and closes and removes it however `body` ends.
  func withCheckout<T: Sendable>(
    of repository: URL, at revision: String, in folder: URL, _ body: (URL) async throws -> T
  ) async throws -> T {
    let scratch = folder.appendingPathComponent(".checkout-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: scratch) }
    do {
      try await run(
        ["open", repository.path, revision, "--workdir", scratch.path, "--nosync", "--force"])
      let result = try await body(scratch)
      try await run(["close", "--force"], in: scratch)
      return result
    } catch {
      _ = try? await run(["close", "--force"], in: scratch)
      throw error
    }
  }

  /// Tells the check-out `checkout` of files `added` (`fossil add --force`: dotfiles and files
  /// the ignore-glob setting matches too) and `removed` (`fossil rm`, the files already gone),
  /// by name, a few hundred per command.
  func track(added: [String], removed: [String], in checkout: URL) async throws {
    for (command, paths) in [(["add", "--force"], added), (["rm"], removed)] {
      for start in stride(from: 0, to: paths.count, by: 500) {
        let batch = paths[start..<min(start + 500, paths.count)]
        try await run(command + ["--"] + batch, in: checkout)
      }
    }
  }

  /// The new check-in `fossil commit` reports in its output (`New_Version: <hash>`).
  static func newVersion(in commitOutput: String) -> String? {
    for line in commitOutput.split(whereSeparator: \.isNewline) where line.hasPrefix("New_Version:")
    {
      return line.dropFirst("New_Version:".count).trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  /// `text` as an SQL string literal (for `fossil sql`).
  static func sqlLiteral(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// The child's complete environment: this process's, without its `FOSSIL_*` variables,
  /// with ``user`` and ``home``.
  var environment: [String: String] {
    var values = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FOSSIL_") }
    values["FOSSIL_USER"] = user
    values["USER"] = user
    if let home { values["FOSSIL_HOME"] = home.path }
    return values
  }
}

/// A `fossil` command failed (or could not start). Its arguments never hold a secret.
public struct FossilCommandError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The arguments after `fossil`.
  public var arguments: [String]
  /// The exit status (the signal number when killed; -1 when it could not start).
  public var status: Int32
  /// Fossil's own message (its standard error, or output when that was empty).
  public var message: String

  public var description: String {
    "fossil \(arguments.first ?? "") failed (\(status)): \(message)"
  }
}
