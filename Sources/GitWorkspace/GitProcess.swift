import Foundation
import ProcessSupport

/// One configured way of running `git`: the executable, an environment isolated from the
/// machine's and the user's git configuration, and `-c` settings passed to every command.
///
/// The environment is this process's environment without any inherited `GIT_*` variable
/// (a hook's `GIT_DIR` must never leak in), plus:
/// `GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null` (no `/etc/gitconfig`, `~/.gitconfig`
/// or XDG config), `GIT_TERMINAL_PROMPT=0` (never wait for a password) and `LC_ALL=C` (git's
/// messages in English), then ``environment`` on top. Author and committer identity come from
/// `-c user.name=… -c user.email=…` (see ``withIdentity(_:)``), never from global config.
///
/// ```swift
/// let git = GitProcess().withIdentity(GitSignature(name: "Ada", email: "ada@example.com"))
/// let head = try await git.text(["rev-parse", "HEAD"], in: repository)
/// ```
public struct GitProcess: Sendable {
  /// The git executable (or `/usr/bin/env` when git was not found on `PATH`).
  public var executable: URL
  /// Arguments placed before everything else (`["git"]` when running through `env`).
  public var launcherArguments: [String]
  /// Extra environment variables (for example `GIT_SSH_COMMAND`); they win over the defaults.
  public var environment: [String: String]
  /// Settings passed as `-c key=value` to every command, in key order.
  public var configuration: [String: String]

  /// Creates a runner for `executable`, or for the first `git` on `PATH` (falling back to
  /// `/usr/bin/env git`).
  public init(
    executable: URL? = nil,
    environment: [String: String] = [:],
    configuration: [String: String] = [:]
  ) {
    if let executable {
      self.executable = executable
      self.launcherArguments = []
    } else if let found = ProcessRunner.findOnPath("git") {
      self.executable = found
      self.launcherArguments = []
    } else {
      self.executable = URL(fileURLWithPath: "/usr/bin/env")
      self.launcherArguments = ["git"]
    }
    self.environment = environment
    var settings = [
      "init.defaultBranch": "main",
      "advice.detachedHead": "false",
      "core.logAllRefUpdates": "true",
    ]
    settings.merge(configuration) { _, new in new }
    self.configuration = settings
  }

  /// The same runner, with `user.name` and `user.email` set for every command, so commits it
  /// makes are authored and committed by `signature`.
  public func withIdentity(_ signature: GitSignature) -> GitProcess {
    var copy = self
    copy.configuration["user.name"] = signature.name
    copy.configuration["user.email"] = signature.email
    return copy
  }

  /// Runs `git <arguments>` and answers its result.
  ///
  /// - Parameters:
  ///   - arguments: the subcommand and its arguments (the `-c` settings and `-C` go before).
  ///   - directory: passed as `git -C <directory>`; `nil` runs in the current directory.
  ///   - environment: extra variables for this command only (for example `GIT_INDEX_FILE`).
  ///   - input: written to git's standard input.
  ///   - acceptedStatuses: exit statuses that are answers rather than failures (for example
  ///     `[0, 1]` for `merge-base --is-ancestor`).
  /// - Throws: ``GitError`` carrying git's message when the status is not accepted or git
  ///   cannot be started; `CancellationError` when the task was cancelled (git is terminated).
  @discardableResult
  public func run(
    _ arguments: [String],
    in directory: URL? = nil,
    environment: [String: String] = [:],
    input: Data? = nil,
    acceptedStatuses: Set<Int32> = [0]
  ) async throws -> ProcessResult {
    var full = launcherArguments
    for (key, value) in configuration.sorted(by: { $0.key < $1.key }) {
      full += ["-c", "\(key)=\(value)"]
    }
    if let directory { full += ["-C", directory.path] }
    full += arguments
    let result: ProcessResult
    do {
      // A push to a local path runs the remote's `git receive-pack` and its hooks as git's
      // children: cancellation signals git alone, never the remote's side (a hook holding a
      // branch's ref lock would leave it locked for every user of the remote).
      result = try await ProcessRunner().run(
        executable, arguments: full, environment: processEnvironment(adding: environment),
        input: input, termination: arguments.first == "push" ? .processOnly : .processGroup
      )
    } catch let launch as ProcessLaunchError {
      throw GitError(arguments: arguments, status: -1, message: launch.description)
    }
    guard result.signal == nil, acceptedStatuses.contains(result.status) else {
      let error = GitError.message(result.errorText)
      let output = GitError.message(result.outputText)
      // `push --porcelain` explains rejections ("[rejected] (stale info)") on stdout.
      let explainsOnOutput = error.isEmpty || arguments.first == "push"
      let message = [error, explainsOnOutput ? output : ""].filter { !$0.isEmpty }
        .joined(separator: "\n")
      throw GitError(
        arguments: arguments, status: result.status, signal: result.signal, message: message)
    }
    return result
  }

  /// Runs `git <arguments>` and answers its standard output without the trailing newline.
  public func text(
    _ arguments: [String],
    in directory: URL? = nil,
    environment: [String: String] = [:],
    input: Data? = nil
  ) async throws -> String {
    let output = try await run(arguments, in: directory, environment: environment, input: input)
      .outputText
    return output.hasSuffix("\n") ? String(output.dropLast()) : output
  }

  /// The complete environment of a git child process.
  func processEnvironment(adding extra: [String: String]) -> [String: String] {
    var values = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
    values["GIT_CONFIG_NOSYSTEM"] = "1"
    values["GIT_CONFIG_GLOBAL"] = "/dev/null"
    values["GIT_TERMINAL_PROMPT"] = "0"
    values["GIT_ATTR_NOSYSTEM"] = "1"
    values["LC_ALL"] = "C"
    values.merge(environment) { _, new in new }
    values.merge(extra) { _, new in new }
    return values
  }
}
