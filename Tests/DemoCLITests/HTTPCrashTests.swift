import DemoServer
import Foundation
import Testing
import WorkspaceJournal

@testable import demo_cli

/// Crash-safe publication on a demo server: the built demo-cli, on a server that outlives it,
/// is SIGKILLed at every step of a publication and restarted. Sessions are never saved, so the
/// restarted tool signs in again, and that sign-in sends the interrupted attempt with its key;
/// the server answers the record if the attempt had created it. Exactly one record each time.
@Suite("Crash-safe publication over HTTP")
struct HTTPCrashTests {
  @Test(
    "On a demo server: killed at any step, exactly one record after the restart",
    arguments: CrashInjection.Step.allCases)
  func killed(at step: CrashInjection.Step) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try DemoServer()
    let state = directory.appendingPathComponent("state.json").path
    let arguments = [
      "--state", state, "--backend", "http", "--remote", server.baseURL.absoluteString, "repl",
    ]
    let environment = ["TMPDIR": directory.path]

    let setup = try await DemoCLIBinary.run(
      arguments, input: "signin ada lovelace\nadd e4 Talk\n", environment: environment)
    try #require(setup.status == 0, "\(setup.outputText)\(setup.errorText)")
    let killed = try await DemoCLIBinary.run(
      arguments, input: "signin ada lovelace\npropose Talk\n",
      environment: environment.merging([
        CrashInjection.variable: CrashInjection.prefix + step.rawValue
      ]) { $1 })
    #expect(
      killed.signal == SIGKILL,
      "not killed at \(step.rawValue): \(killed.outputText)\(killed.errorText)")

    let leavesAnIntent = [.afterIntent, .afterAnswer].contains(step)
    // The sign-in that admits sends the interrupted attempt again (no 'retry' needed).
    let restarted = try await DemoCLIBinary.run(
      arguments, input: "signin ada lovelace\nstatus\n", environment: environment)
    #expect(restarted.status == 0, "\(restarted.outputText)\(restarted.errorText)")
    #expect(
      restarted.outputText.contains("interrupted publication: “Talk”") == leavesAnIntent,
      "\(restarted.outputText)")
    if leavesAnIntent {
      #expect(
        restarted.outputText.contains("not sent again yet: not signed in"),
        "\(restarted.outputText)")
      let output = restarted.outputText
      let afterSignIn = try #require(
        output.firstRange(of: "› signin").map { output[$0.upperBound...] }, "\(output)")
      #expect(
        afterSignIn.contains("interrupted publication: “Talk”")
          && afterSignIn.contains("✓ proposal P1"), "\(restarted.outputText)")
    }
    var saved = try #require(try StateFileStorage(path: state).load())
    let journal = try PublicationJournal(
      storage: JournalFile(url: URL(fileURLWithPath: state + ".journal")))
    #expect(journal.entries.isEmpty, "the journal still holds \(journal.entries) after the restart")
    if saved.proposals.isEmpty {
      // Nothing was sent and nothing is pending: the person proposes again.
      let again = try await DemoCLIBinary.run(
        arguments, input: "signin ada lovelace\npropose Talk\n", environment: environment)
      #expect(again.status == 0, "\(again.outputText)")
      saved = try #require(try StateFileStorage(path: state).load())
    }
    #expect(saved.proposals.count == 1, "\(saved.proposals)")
    let records = try await server.service.system.allProposals()
    #expect(records.count == 1, "\(records.count) records after a SIGKILL at \(step.rawValue)")
    #expect(saved.proposals.first?.id == records.first?.id)
    await server.stop()
  }
}
