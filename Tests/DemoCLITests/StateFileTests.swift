import ComposableAuthoring
import ComposableWorkspace
import Foundation
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

@MainActor
@Suite("--state")
struct StateFileTests {
  @Test(
    "Round trip: reopened, the workspace is ready with its edits, not re-prepared, the grant revalidated"
  )
  func roundTrip() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path

    let first = await runCLI(
      ["--state", path, "repl"],
      input: [
        "signin ada lovelace", "add e4 Poetry Evening", "propose Poetry", "merge P1",
        "rename e2 Spring Fair",
      ])
    #expect(first.status == 0, "\(first.output)")

    let saved = try #require(try StateFileStorage(path: path).load())
    #expect(saved.persistedGrant == AuthoringGrant(rawValue: "grant-1"))
    #expect(saved.session?.username == "ada")
    #expect(saved.proposals.map(\.id) == ["P1"])

    // Reopen: the head moved to r2 meanwhile; a re-prepared workspace would be at r2 without
    // the edits. It must come back exactly as saved.
    let host = DemoHost(restoring: saved)
    #expect(host.context == nil, "authoring starts not admitted")
    await host.start()
    #expect(
      host.context?.grant == AuthoringGrant(rawValue: "grant-1"),
      "the persisted grant was not revalidated")
    let session = try #require(host.session)
    #expect(session.baseline == WorkspaceBranchReference(branch: "published", revision: "r1"))
    #expect(session.source.events[id: "e4"]?.title == "Poetry Evening")
    #expect(session.source.events[id: "e2"]?.title == "Spring Fair")
    #expect(host.state.editing.content.proposals.map(\.id) == ["P1"])
    let stale = try await CommandExecutor(host: host).run("propose Spring fair")
    #expect(stale.text == "no proposal created: published moved from r1 to r2; refresh first")

    // And through the tool: the edit goes on from where it stopped.
    let second = await runCLI(
      ["--state", path, "repl"], input: ["status", "refresh", "propose Spring fair"])
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("restored from \(path)"))
    #expect(second.output.contains("authoring: admitted as ada · grant grant-1"))
    #expect(second.output.contains("workspace: ready at published@r1 · 4 events"))
    #expect(second.output.contains("✓ baseline refreshed: published@r1 → published@r2"))
    #expect(second.output.contains(#/✓ proposal P2 · content c[0-9a-f]+ · target published@r2/#))
    #expect(try StateFileStorage(path: path).load()?.proposals.map(\.id) == ["P1", "P2"])
  }

  @Test("Reopened with a grant the server no longer honours: not admitted, the workspace kept")
  func revokedGrant() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = StateFileStorage(path: directory.appendingPathComponent("state.json").path)
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace", "add e4 Talk")
    try await executor.host.memory.revokeAllGrants()
    try storage.save(await executor.host.snapshot())

    let host = DemoHost(restoring: try #require(try storage.load()))
    await host.start()
    #expect(host.context == nil)
    #expect(host.credentials.current.persistedGrant == nil, "the invalid grant was kept")
    #expect(host.session?.source.events[id: "e4"]?.title == "Talk")
    let refused = try await CommandExecutor(host: host).run("add e5 More")
    #expect(refused.text == "not admitted to authoring; 'enter' before you edit")
  }

  @Test("The file has mode 0600, no password, and no temporary file is left behind")
  func permissions() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    let run = await runCLI(
      ["--state=\(path)", "repl"], input: ["signin ada lovelace", "add e4 Talk"])
    #expect(run.status == 0)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!text.contains("lovelace"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        == ["state.json", "state.json.lock"])
  }

  @Test("The walk saves at the end, and a second walk continues from the saved system")
  func walk() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("walk.json").path
    let first = await runCLI(["--state", path])
    #expect(first.status == 0)
    #expect(first.output.hasSuffix("state saved to \(path)\n"))
    let second = await runCLI(["--state", path])
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("on the system saved in \(path)"))
    #expect(second.output.contains("✓ proposal P4 · content c"))
    #expect(second.output.contains("target published@r2"))
    #expect(second.output.contains("P4 was merged: published@r3 is the new head"))
  }

  @Test("A corrupt state file: one clear line, exit 1, the file untouched")
  func corrupt() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    for contents in ["not json at all", #"{"version": 1}"#, #"{"version": 99}"#, ""] {
      try writePrivately(contents, to: path)
      for arguments in [["--state", path, "repl"], ["--state", path]] {
        let run = await runCLI(arguments, input: ["signin ada lovelace", "add e4 Talk"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(
          run.errors.hasPrefix(
            "demo-cli: cannot use the state file \(path): it is not a usable demo-cli state file"))
        #expect(run.errors.filter { $0 == "\n" }.count == 1, "more than one line: \(run.errors)")
        #expect(
          try String(contentsOfFile: path, encoding: .utf8) == contents, "the file was overwritten")
      }
    }
  }

  @Test("An unreadable state file or a missing directory: one clear line, exit 1")
  func unreadable() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = await runCLI(["--state", directory.path, "repl"])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "demo-cli: cannot use the state file \(directory.path): it is not a regular file; it was left as it is\n"
    )
    let missing = directory.appendingPathComponent("no/such/dir/state.json").path
    let second = await runCLI(["--state", missing])
    #expect(second.status == 1)
    #expect(second.output.isEmpty, "the walk ran although nothing could be saved")
    #expect(second.errors.contains("cannot write it"))
  }
}
