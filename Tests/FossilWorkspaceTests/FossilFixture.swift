import ComposableAuthoring
import ComposableWorkspace
import Foundation
import HTTPTestSupport

@testable import FossilWorkspace

/// A real `fossil server` on a free loopback port, serving a fresh repository with the test
/// accounts and a seeded history, in a temporary folder of its own. Stop it (by its pid) with
/// ``stop()``; every test does, so no server outlives its test.
struct FossilFixture: Sendable {
  struct Account: Sendable {
    let name: String
    let password: String
    let capabilities: String
  }

  static let ada = Account(name: "ada", password: "lovelace-2", capabilities: "io")
  static let grace = Account(name: "grace", password: "hopper-2", capabilities: "io")
  static let linus = Account(name: "linus", password: "torvalds-2", capabilities: "o")
  static let accounts = [ada, grace, linus]

  /// The files of trunk's first check-in (the festival branch adds `festival.txt` on top).
  static let seed: [String: String] = [
    "a.txt": "alpha\n", "b.txt": "bravo\n", "notes/c.txt": "charlie\n", "other.txt": "one\n",
  ]

  let directory: URL
  let repository: LocalFossilRepository
  let server: LocalFossilServer

  var baseURL: URL { server.baseURL }

  /// Creates, seeds and serves a repository.
  static func start() async throws -> FossilFixture {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("fossil-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    do {
      let fossil = FossilCommand(home: directory)
      let repository = try await LocalFossilRepository.create(
        at: directory.appendingPathComponent("repository.fossil"), fossil: fossil)
      for account in accounts {
        try await repository.addUser(
          account.name, capabilities: account.capabilities, password: account.password)
      }
      try await repository.commit(
        seed.mapValues { Data($0.utf8) }, message: "Seed", user: "ada")
      try await repository.commit(
        ["festival.txt": Data("programme\n".utf8)], message: "Plan the festival", user: "ada",
        branch: "festival")
      let server = try await LocalFossilServer.start(serving: repository)
      return FossilFixture(directory: directory, repository: repository, server: server)
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
  }

  /// Runs `body` with a started fixture, and stops it however `body` ends. At most two
  /// fixtures run at once (``Turns/fossil``), so the suite's other tests keep their cores.
  @discardableResult
  static func with<T: Sendable>(_ body: (FossilFixture) async throws -> T) async throws -> T {
    try await Turns.taking(.fossil) {
      let fixture = try await start()
      do {
        let result = try await body(fixture)
        await fixture.stop()
        return result
      } catch {
        await fixture.stop()
        throw error
      }
    }
  }

  /// Stops the server (by its pid) and removes the folder.
  func stop() async {
    await server.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// A new session, signed in as `account`.
  func signedIn(_ account: Account, at url: URL? = nil) async throws -> FossilSession {
    let session = FossilSession(
      baseURL: url ?? baseURL, configuration: FossilSessionConfiguration(timeout: .seconds(10)))
    _ = try await session.signIn(name: account.name, password: account.password)
    return session
  }

  /// The newest check-in of `branch`, read from the repository file.
  func head(of branch: String) async throws -> String {
    try await repository.sql(
      "SELECT uuid FROM blob WHERE rid = (SELECT objid FROM event WHERE type = 'ci' AND objid IN "
        + "(SELECT rid FROM tagxref JOIN tag USING(tagid) WHERE tagname = 'sym-\(branch)' "
        + "AND tagtype > 0) ORDER BY mtime DESC LIMIT 1);"
    ).trimmingCharacters(in: CharacterSet(charactersIn: "'\n "))
  }

  /// The proposal branches the repository holds.
  func proposalBranches() async throws -> Set<String> {
    let output = try await repository.sql(
      "SELECT substr(tagname, 5) FROM tag WHERE tagname LIKE 'sym-proposal-%';")
    return Set(
      output.split(separator: "\n").map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: "' "))
      })
  }

  /// `account` checks `content` in as `path` on the newest check-in of `branch` with the
  /// `fossil` command on the server's repository file (another user moving the branch);
  /// answers the new check-in.
  @discardableResult
  func checkIn(
    _ path: String, _ content: String, on branch: String, as account: Account = grace
  ) async throws -> String {
    try await repository.commit(
      [path: Data(content.utf8)], message: "By \(account.name)", user: account.name,
      parent: branch)
  }

  /// `fossil <arguments> -R <the server's repository>`'s output: what a Fossil user reads.
  func fossil(_ arguments: [String]) async throws -> String {
    try await repository.fossil.run(arguments + ["-R", repository.file.path]).outputText
  }

  /// The bytes of `path` in check-in `revision`, as the server's repository holds them.
  func cat(_ path: String, at revision: String) async throws -> Data {
    try await repository.fossil.run(["cat", path, "-r", revision, "-R", repository.file.path])
      .standardOutput
  }

  /// The artifact `name` (a check-in's manifest) as `fossil artifact` prints it.
  func artifact(_ name: String) async throws -> String {
    try await fossil(["artifact", name])
  }

  /// A folder for workspaces, inside the fixture's.
  func workspaces(_ name: String = "workspaces") -> URL {
    directory.appendingPathComponent(name, isDirectory: true)
  }
}

extension AuthoringContext {
  /// `account`'s capability as Authoring would validate it.
  static func editor(_ account: FossilFixture.Account) -> AuthoringContext {
    AuthoringContext(
      identity: AuthoringIdentity(rawValue: account.name),
      grant: AuthoringGrant(rawValue: "\(account.name)@test"), capabilities: [.edit, .publish])
  }
}
