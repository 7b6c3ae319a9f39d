import DemoFossilBackend
import DemoGitBackend
import Foundation

/// What the tool was asked to do, parsed from its arguments.
///
/// ```
/// demo-cli [--backend memory | git --remote PATH|new | http --remote URL|new
///          | fossil --remote URL|new | sqlite --remote PATH|URL|new] [--state FILE] [--no-color]
///          [walk | repl]
/// demo-cli serve [--port N] [--database FILE]
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
    /// Serve the demo system over HTTP on 127.0.0.1:`port` (0: a free port) until interrupted,
    /// kept in the SQLite file `database` when given, else in memory.
    case serve(port: UInt16, database: String?)
  }

  var mode: Mode = .walk
  /// Where the system and the local workspace are kept between runs.
  var statePath: String?
  /// `--no-color`: never write ANSI colours.
  var noColor = false
  /// `--backend` and its `--remote`.
  var backend: BackendChoice = .memory

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var invocation = Invocation()
    var subcommand: String?
    var backend: String?
    var remote: String?
    var port: String?
    var database: String?
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
      case "--port":
        guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
          throw .missingValue(argument)
        }
        guard port == nil else { throw .repeatedOption(argument) }
        port = value
      case "--database":
        guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("-") else {
          throw .missingValue(argument)
        }
        guard database == nil else { throw .repeatedOption(argument) }
        database = value
      case _ where argument.hasPrefix("--database="):
        let value = String(argument.dropFirst("--database=".count))
        guard !value.isEmpty else { throw .missingValue("--database") }
        guard database == nil else { throw .repeatedOption("--database") }
        database = value
      case _ where argument.hasPrefix("--port="):
        let value = String(argument.dropFirst("--port=".count))
        guard !value.isEmpty else { throw .missingValue("--port") }
        guard port == nil else { throw .repeatedOption("--port") }
        port = value
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
    case "serve":
      let others = [
        ("--backend", backend), ("--remote", remote), ("--state", invocation.statePath),
      ]
      for (option, given) in others where given != nil { throw .notWithServe(option) }
      guard let number = UInt16(port ?? "0") else {
        throw .invalidValue(
          option: "--port", value: port ?? "", expected: "a port number (0 to 65535)")
      }
      invocation.mode = .serve(port: number, database: database)
      return invocation
    case let other?: throw .unknownSubcommand(other)
    }
    if port != nil { throw .portWithoutServe }
    if database != nil { throw .databaseWithoutServe }
    switch (backend ?? "memory", remote) {
    case ("memory", nil): invocation.backend = .memory
    case ("memory", _?): throw .remoteWithoutBackend
    case ("git", nil): throw .gitWithoutRemote
    case ("git", "new"?): invocation.backend = .git(.new)
    case ("git", let path?): invocation.backend = .git(.existing(path))
    case ("http", nil): throw .httpWithoutRemote
    case ("http", "new"?): invocation.backend = .http(.new)
    case ("http", let value?):
      guard let url = ServerChoice.url(value) else {
        throw .invalidValue(
          option: "--remote", value: value,
          expected: "new or the server's URL (http://127.0.0.1:PORT)")
      }
      invocation.backend = .http(.existing(url))
    case ("fossil", nil): throw .fossilWithoutRemote
    case ("fossil", "new"?): invocation.backend = .fossil(.new)
    case ("fossil", let url?): invocation.backend = .fossil(.existing(url))
    case ("sqlite", nil): throw .sqliteWithoutRemote
    case ("sqlite", "new"?): invocation.backend = .sqlite(.new)
    case ("sqlite", let path?): invocation.backend = .sqlite(.existing(path))
    case (let other, _):
      throw .invalidValue(
        option: "--backend", value: other, expected: "memory, git, http, fossil or sqlite")
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
  case remoteWithoutBackend
  case gitWithoutRemote
  case httpWithoutRemote
  case fossilWithoutRemote
  case sqliteWithoutRemote
  case portWithoutServe
  case databaseWithoutServe
  case notWithServe(String)

  var description: String {
    switch self {
    case .unknownOption(let option): "unknown option '\(option)'"
    case .unknownSubcommand(let name): "unknown subcommand '\(name)'"
    case .missingValue(let option): "\(option) needs a value"
    case .repeatedOption(let option): "\(option) is given more than once"
    case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
    case .invalidValue(let option, let value, let expected):
      "\(option) takes \(expected), not '\(value)'"
    case .remoteWithoutBackend: "--remote needs --backend git, http, fossil or sqlite"
    case .gitWithoutRemote:
      "--backend git needs --remote PATH (an existing repository) or --remote new"
    case .httpWithoutRemote:
      "--backend http needs --remote URL (a running 'demo-cli serve') or --remote new"
    case .fossilWithoutRemote:
      "--backend fossil needs --remote URL (a Fossil server) or --remote new"
    case .sqliteWithoutRemote:
      "--backend sqlite needs --remote PATH (a SQLite remote's file), URL (a demo server "
        + "started with --database) or --remote new"
    case .portWithoutServe: "--port goes with serve"
    case .databaseWithoutServe: "--database goes with serve"
    case .notWithServe(let option): "\(option) does not go with serve"
    }
  }
}

/// `--backend NAME` and its `--remote`: where the catalogue, proposals and workspace live.
enum BackendChoice: Equatable, Sendable {
  /// `--backend memory` (the default): the in-memory system.
  case memory
  /// `--backend git --remote PATH|new`: the catalogue and the workspace on a Git remote.
  case git(RemoteChoice)
  /// `--backend http --remote URL|new`: everything on a demo server over HTTP.
  case http(ServerChoice)
  /// `--backend fossil --remote URL|new`: everything on a Fossil server, sign-in included.
  case fossil(FossilRemoteSetup.Choice)
  /// `--backend sqlite --remote PATH|URL|new`: the workspace a SQLite working database; the
  /// catalogue in a SQLite remote file, or on a demo server that keeps its data in SQLite.
  case sqlite(RemoteChoice)

  /// The name `--backend` takes (and a state file records).
  var name: String {
    switch self {
    case .memory: "memory"
    case .git: "git"
    case .http: "http"
    case .fossil: "fossil"
    case .sqlite: "sqlite"
    }
  }

  /// Whether `--remote new` asked for a new remote or server.
  var isNew: Bool {
    switch self {
    case .memory: false
    case .git(let choice): choice == .new
    case .http(let choice): choice == .new
    case .fossil(let choice): choice == .new
    case .sqlite(let choice): choice == .new
    }
  }
}

/// `--backend http --remote`: a new server in this process, or a running one.
enum ServerChoice: Equatable, Sendable {
  /// `--remote new`: a demo server started in this process, stopped at the end of the run.
  case new
  /// `--remote URL`: a running demo server (`demo-cli serve`).
  case existing(URL)

  /// `value` as a server's base URL: `http` or `https`, a host, no query or fragment.
  static func url(_ value: String) -> URL? {
    guard var components = URLComponents(string: value),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty, components.query == nil,
      components.fragment == nil, components.user == nil, components.password == nil
    else { return nil }
    // One spelling per server, so a state file recognises it.
    if components.path == "/" { components.path = "" }
    return components.url
  }
}
