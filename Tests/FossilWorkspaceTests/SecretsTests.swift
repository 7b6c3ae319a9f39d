import ComposableCore
import Foundation
import ProcessTestSupport
import Testing
import WorkspaceHTTP

@testable import FossilWorkspace

@Suite("Fossil secrets", .requires(.fossil))
struct SecretsTests {
  /// A `fossil` that records its arguments, environment and input: the password never reaches
  /// them, only its hash does, on standard input.
  @Test func aPasswordReachesFossilOnlyAsItsHashOnStandardInput() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("fossil-secrets-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("log")
    let fake = folder.appendingPathComponent("fossil")
    try await installExecutable(
      """
      #!/bin/sh
      { echo "ARGS: $*"; env; echo "INPUT:"; [ "$1" = info ] || cat; } >> '\(log.path)'
      [ "$1" = info ] && echo "project-code: 0123abcd"
      exit 0
      """, at: fake)
    let repository = LocalFossilRepository(
      file: folder.appendingPathComponent("r.fossil"),
      fossil: FossilCommand(executable: fake, home: folder))
    let password = "correct horse battery staple"
    try await repository.addUser("ada", capabilities: "io", password: password)
    try await repository.setPassword(password, of: "ada")
    let recorded = try String(contentsOf: log, encoding: .utf8)
    #expect(!recorded.contains(password))
    #expect(!recorded.contains("battery"))
    let hash = SHA1.hash(Array("0123abcd/ada/\(password)".utf8)).hexString
    #expect(recorded.contains("UPDATE user SET pw = '\(hash)' WHERE login = 'ada';"))
    #expect(recorded.contains("VALUES('ada', '\(hash)', 'io', '', now());"))
  }

  @Test func sha1MatchesTheStandardVectors() {
    #expect(SHA1.hash(Array("abc".utf8)).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(SHA1.hash([]).hexString == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(SHA1.hash(long).hexString == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
  }

  /// Every log line of a sign-in, a preparation and a publication: no password, no token.
  @Test func logsCarryNoPasswordOrToken() async throws {
    try await FossilFixture.with { fixture in
      let lines = LockIsolated<[String]>([])
      let session = FossilSession(
        baseURL: fixture.baseURL,
        configuration: FossilSessionConfiguration(
          logger: HTTPLogger { line in lines.withValue { $0.append(line) } }))
      _ = try await session.signIn(name: "ada", password: FossilFixture.ada.password)
      let token = try #require(session.http.cookies.first?.value)
      let fossil = FossilWorkspaceClient(
        session: session, configuration: FossilWorkspaceConfiguration(root: fixture.workspaces()),
        capability: { .editor(FossilFixture.ada) })
      let prepared = try await fossil.prepareSource("secrets")
      try Data("alpha, logged\n".utf8).write(
        to: prepared.source.files.appendingPathComponent("a.txt"))
      let changes = try await fossil.captureChanges(prepared.source, prepared.baseline)
      _ = try await fossil.publishProposal(
        prepared.source, prepared.baseline, changes, WorkspaceHarness.request())
      try await session.signOut()
      let text = lines.current.joined(separator: "\n")
      #expect(lines.current.count > 10)
      #expect(!text.contains(FossilFixture.ada.password))
      #expect(!text.contains(token))
      #expect(!text.contains(String(token.prefix(10))))
    }
  }

  /// The local clone's `fossil` runs (clone, pull, commit, push, merge) never see the password
  /// or the login cookie — not in their arguments, not in their environment — and no file the
  /// client leaves holds either: the sync relay carries the login in this process's memory.
  @Test func theCloneSyncsWithoutTheLoginEverLeavingTheProcess() async throws {
    try await FossilFixture.with { fixture in
      let log = fixture.directory.appendingPathComponent("fossil-runs.log")
      let wrapper = fixture.directory.appendingPathComponent("fossil-recording")
      let real = try #require(FossilCommand().executable.path as String?)
      try await installExecutable(
        """
        #!/bin/sh
        { echo "ARGS: $*"; env; } >> '\(log.path)'
        exec '\(real)' "$@"
        """, at: wrapper)
      let session = try await fixture.signedIn(FossilFixture.ada)
      let token = try #require(session.http.cookies.first?.value)
      let root = fixture.workspaces()
      let fossil = FossilWorkspaceClient(
        session: session,
        configuration: FossilWorkspaceConfiguration(root: root, fossilExecutable: wrapper),
        capability: { .editor(FossilFixture.ada) })
      let prepared = try await fossil.prepareSource("secrets")
      try Data("alpha, private\n".utf8).write(
        to: prepared.source.files.appendingPathComponent("a.txt"))
      let changes = try await fossil.captureChanges(prepared.source, prepared.baseline)
      let record = try await fossil.publishProposal(
        prepared.source, prepared.baseline, changes, WorkspaceHarness.request())
      _ = try await fossil.merge(proposalID: record.id)

      let recorded = try String(contentsOf: log, encoding: .utf8)
      #expect(recorded.contains("ARGS: push"), "the pushes ran through the wrapper")
      let decoded = token.removingPercentEncoding ?? token
      for secret in [FossilFixture.ada.password, token, decoded, String(decoded.prefix(20))] {
        #expect(!recorded.contains(secret))
      }
      for file in FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [] {
        let data = (try? Data(contentsOf: root.appendingPathComponent(file))) ?? Data()
        for secret in [FossilFixture.ada.password, decoded, String(decoded.prefix(20))] {
          #expect(data.range(of: Data(secret.utf8)) == nil, "\(file) holds a secret")
        }
      }
    }
  }
}
