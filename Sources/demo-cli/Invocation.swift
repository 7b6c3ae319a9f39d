import DemoGitBackend

/// What the tool was asked to do, parsed from its arguments.
///
/// ```
/// demo-cli [--backend memory | --backend git --remote PATH|new] [--state FILE] [--no-color] [walk]
/// demo-cli [--backend memory | --backend git --remote PATH|new] [--state FILE] [--no-color] repl
/// demo-cli --help | help
/// ```
struct Invocation: Equatable, Sendable {
  enum Mode: Equatable, Sendable {
    /// Walk the whole story and narrate it (the default).
    case walk
    /// The interactive shell.
    case repl
    /// Print the tool's help.
    case help
  }

  var mode: Mode = .walk
  /// Where the system and the local workspace are kept between runs.
  var statePath: String?
  /// `--no-color`: never write ANSI colours.
  var noColor = false
  /// `--backend git --remote …`: the catalogue and the workspace on a Git remote; `nil` for
  /// the in-memory system (`--backend memory`, the default).
  var remote: RemoteChoice?

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var invocation = Invocation()
    var subcommand: String?
    var backend: String?
    var remote: String?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        invocation.mode = .help
        return invocation
      case "--no-color":
        invocation.noColor = true
      case "--state":
        guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
          throw .missingValue("--state")
        }
        try invocation.setStatePath(value)
      case _ where argument.hasPrefix("--state="):
        let value = String(argument.dropFirst("--state=".count))
        guard !value.isEmpty else { throw .missingValue("--state") }
        try invocation.setStatePath(value)
      case "--backend", "--remote":
        guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
          throw .missingValue(argument)
        }
        try set(argument, value, backend: &backend, remote: &remote)
      case _ where argument.hasPrefix("--backend=") || argument.hasPrefix("--remote="):
        let option = String(argument.prefix { $0 != "=" })
        let value = String(argument.dropFirst(option.count + 1))
        guard !value.isEmpty, !value.hasPrefix("-") else { throw .missingValue(option) }
        try set(option, value, backend: &backend, remote: &remote)
      case _ where argument.hasPrefix("-"):
        throw .unknownOption(argument)
      default:
        guard subcommand == nil else { throw .unexpectedArgument(argument) }
        subcommand = argument
      }
    }
    switch subcommand {
    case nil, "walk": invocation.mode = .walk
    case "repl": invocation.mode = .repl
    case "help": invocation.mode = .help
    case let other?: throw .unknownSubcommand(other)
    }
    switch (backend ?? "memory", remote) {
    case ("memory", nil): invocation.remote = nil
    case ("memory", _?): throw .remoteWithoutGit
    case ("git", nil): throw .gitWithoutRemote
    case ("git", "new"?): invocation.remote = .new
    case ("git", let path?): invocation.remote = .existing(path)
    case (let other, _): throw .invalidValue(option: "--backend", value: other, expected: "memory or git")
    }
    return invocation
  }

  private static func set(
    _ option: String, _ value: String, backend: inout String?, remote: inout String?
  ) throws(UsageError) {
    if option == "--backend" {
      guard backend == nil else { throw .repeatedOption(option) }
      backend = value
    } else {
      guard remote == nil else { throw .repeatedOption(option) }
      remote = value
    }
  }

  private mutating func setStatePath(_ path: String) throws(UsageError) {
    guard statePath == nil else { throw .repeatedOption("--state") }
    statePath = path
  }
}

/// The arguments could not be understood; the tool exits with status 2.
enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknownOption(String)
  case unknownSubcommand(String)
  case missingValue(String)
  case repeatedOption(String)
  case unexpectedArgument(String)
  case invalidValue(option: String, value: String, expected: String)
  case remoteWithoutGit
  case gitWithoutRemote

  var description: String {
    switch self {
    case .unknownOption(let option): "unknown option '\(option)'"
    case .unknownSubcommand(let name): "unknown subcommand '\(name)'"
    case .missingValue(let option): "\(option) needs a value"
    case .repeatedOption(let option): "\(option) is given more than once"
    case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
    case .invalidValue(let option, let value, let expected): "\(option) takes \(expected), not '\(value)'"
    case .remoteWithoutGit: "--remote needs --backend git"
    case .gitWithoutRemote: "--backend git needs --remote PATH (an existing repository) or --remote new"
    }
  }
}
