import ComposableWorkspace
import Foundation
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

@MainActor
@Suite("forget: removing local workspace data")
struct ForgetTests {
  @Test("forget removes the working copy, also from --state; 'enter' prepares a fresh one")
  func forgetWithState() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path

    let first = await runCLI(
      ["--state", path, "repl"],
      input: [
        "signin ada lovelace", "add e4 Poetry Evening", "propose Poetry", "add e5 Unproposed",
        "forget",
      ])
    #expect(first.status == 0, "\(first.output)")
    #expect(first.output.contains("✓ local data of workspace events removed"))
    #expect(first.output.contains("discarded edits: +2 ~0 -0"))
    #expect(
      first.output.contains("workspace: inactive; 'enter' (as an author) prepares a fresh copy"))

    let saved = try #require(try StateFileStorage(path: path).load())
    #expect(saved.workspace == WorkspaceState(id: "events"))
    #expect(saved.proposals.map(\.id) == ["P1"], "the records created here are remote: kept")

    let second = await runCLI(["--state", path, "repl"], input: ["enter", "list"])
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("workspace: ready at published@r1 · 3 events"))
    #expect(!second.output.contains("Unproposed"))
  }

  @Test("forget takes no arguments, and is in the help")
  func usage() async throws {
    let executor = await makeExecutor()
    #expect(throws: CommandError.usage(command: "forget")) { try CommandParser.parse("forget now") }
    #expect(try await executor.run("help forget").text.contains("remove the local workspace data"))
  }
}
