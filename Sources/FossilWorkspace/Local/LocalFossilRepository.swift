import Foundation

/// A Fossil repository file on this machine, administered with the `fossil` executable: for
/// tests, demos and local servers (``LocalFossilServer``) — a client of a remote server never
/// needs one.
///
/// ```swift
/// let file = scratch.appendingPathComponent("r.fossil")
/// let repository = try await LocalFossilRepository.create(at: file)
/// try await repository.addUser("ada", capabilities: "io", password: password)
/// try await repository.setSetting("max-upload", to: "50000000")
/// let server = try await LocalFossilServer.start(serving: repository)
/// ```
///
/// Passwords never reach a child's arguments, its environment, a file or a log: `fossil user
/// new NAME CONTACT PASSWORD` would put one in argv, so users are added with SQL read from
/// standard input that holds only the password's hash, what Fossil itself stores:
/// `SHA1("<project code>/<login>/<password>")`.
public struct LocalFossilRepository: Sendable {
  /// The repository file.
  public let file: URL
  /// How `fossil` is run on it.
  public let fossil: FossilCommand

  /// The repository at `file` (it is not opened or checked).
  public init(file: URL, fossil: FossilCommand = FossilCommand()) {
    self.file = file
    self.fossil = fossil
  }

  /// Creates a new, empty repository at `file` (`fossil init`; its initial admin user is
  /// `fossil.user`, whose generated password is discarded).
  public static func create(at file: URL, fossil: FossilCommand = FossilCommand()) async throws
    -> LocalFossilRepository
  {
    try await fossil.run(["init", file.path])
    return LocalFossilRepository(file: file, fossil: fossil)
  }

  /// The repository's project code.
  public func projectCode() async throws -> String {
    let output = try await fossil.run(["info", "-R", file.path]).outputText
    for line in output.split(separator: "\n") where line.hasPrefix("project-code:") {
      return line.dropFirst("project-code:".count).trimmingCharacters(in: .whitespaces)
    }
    throw FossilCommandError(arguments: ["info"], status: 0, message: "no project-code line")
  }

  /// Adds user `name` with `capabilities` (letters, e.g. `"io"`) and `password`.
  public func addUser(_ name: String, capabilities: String, password: String) async throws {
    let hash = try await passwordHash(password, of: name)
    try await sql(
      "INSERT INTO user(login, pw, cap, info, mtime) "
        + "VALUES(\(FossilCommand.sqlLiteral(name)), '\(hash)', \(FossilCommand.sqlLiteral(capabilities)), '', now());"
    )
  }

  /// Sets `name`'s password: its hash goes to `fossil sql` on standard input.
  public func setPassword(_ password: String, of name: String) async throws {
    let hash = try await passwordHash(password, of: name)
    try await sql("UPDATE user SET pw = '\(hash)' WHERE login = \(FossilCommand.sqlLiteral(name));")
  }

  /// What Fossil stores for `name`'s `password`: `SHA1("<project code>/<login>/<password>")`.
  private func passwordHash(_ password: String, of name: String) async throws -> String {
    let code = try await projectCode()
    return SHA1.hash(Array("\(code)/\(name)/\(password)".utf8)).hexString
  }

  /// Replaces `name`'s capabilities (they take effect on the server's next request).
  public func setCapabilities(_ capabilities: String, of name: String) async throws {
    try await sql(
      "UPDATE user SET cap = \(FossilCommand.sqlLiteral(capabilities)) WHERE login = \(FossilCommand.sqlLiteral(name));"
    )
  }

  /// Makes `name`'s current login expire now: the server answers their next request as
  /// `nobody`.
  public func expireLogin(of name: String) async throws {
    try await sql(
      "UPDATE user SET cexpire = julianday('now', '-1 minute') WHERE login = \(FossilCommand.sqlLiteral(name));"
    )
  }

  /// Sets the repository setting `name` (e.g. `max-upload`).
  public func setSetting(_ name: String, to value: String) async throws {
    try await fossil.run(["settings", name, value, "-R", file.path])
  }

  /// Runs SQL `statements` on the repository (read by `fossil sql` from standard input) and
  /// answers what it printed.
  @discardableResult
  public func sql(_ statements: String) async throws -> String {
    try await fossil.run(["sql", "-R", file.path], input: Data(statements.utf8)).outputText
  }

  /// Commits `files` (path → content, added or replaced) as one check-in by `user`, on top of
  /// `parent` (a branch name or check-in; the newest check-in of `trunk` by default), on
  /// `branch` when given (a new branch starts there), and answers the check-in's hash. Done in
  /// a temporary check-out beside the repository, removed afterwards.
  @discardableResult
  public func commit(
    _ files: [String: Data], message: String, user: String, parent: String = "trunk",
    branch: String? = nil
  ) async throws -> String {
    try await fossil.withCheckout(
      of: file, at: parent, in: file.deletingLastPathComponent()
    ) { checkout in
      for (path, content) in files {
        let target = checkout.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try content.write(to: target)
      }
      try await fossil.track(added: files.keys.sorted(), removed: [], in: checkout)
      var arguments = [
        "commit", "--hash", "-m", message, "--user-override", user, "--no-warnings",
        "--no-prompt",
      ]
      if let branch { arguments += ["--branch", branch] }
      let output = try await fossil.run(arguments, in: checkout).outputText
      guard let made = FossilCommand.newVersion(in: output) else {
        throw FossilCommandError(arguments: ["commit"], status: 0, message: "no New_Version line")
      }
      return made
    }
  }

}
