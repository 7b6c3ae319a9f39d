import DemoHTTPProtocol
import DemoServer
import Foundation
import HTTPTestSupport
import ProcessSupport
import SQLiteWorkspace
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

@testable import demo_cli

/// `demo-cli serve --database FILE` as its operator runs it: a separate process, killed with
/// SIGKILL at any moment and restarted on the same file and port.
@Suite("A demo server that keeps its data in SQLite")
struct DurableServerTests {
  @Test("Two walks, the server SIGKILLed and restarted between them: the second adds its own three")
  func twoWalksAcrossARestart() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("demo.sqlite").path
    let server = try await ServeProcess.start(database: database)
    let first = await runCLI(["--backend", "http", "--remote", server.url])
    #expect(first.status == 0, "\(first.output)\(first.errors)")
    try expectInOrder(
      [
        "✓ proposal P1 · content r3 · target published@r1", "✓ P1 merged: published@r3",
        "✓ proposal P3 · content r5 · target published@r3",
      ], in: first.output)

    try await server.kill()
    let restarted = try await ServeProcess.start(database: database, port: server.port)
    let second = await runCLI(["--backend", "http", "--remote", restarted.url])
    try await restarted.kill()

    #expect(second.status == 0, "\(second.output)\(second.errors)")
    #expect(!second.output.contains("✗"), "\(second.output)")
    try expectInOrder(
      [
        "ready at published@r3 · 4 events", "✓ proposal P4 · content r6 · target published@r3",
        "✓ P4 merged: published@r6 is the new head",
        "✓ proposal P6 · content r8 · target published@r6",
      ],
      in: second.output)
    let store = try SQLiteRemoteStore(path: database)
    let proposals = try await store.proposals()
    #expect(proposals.map(\.record.id) == ["P1", "P2", "P3", "P4", "P5", "P6"])
    #expect(proposals.compactMap(\.mergedRevision) == ["r3", "r6"])
    #expect(try await store.head(of: "published").revision == "r6")
  }

  @Test(
    "SIGKILLed at random moments of a publication: nothing it answered is lost, nothing doubled")
  func killedAtRandomMoments() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("demo.sqlite").path
    let state = directory.appendingPathComponent("state").path
    var server = try await ServeProcess.start(database: database)
    let client = ["--state", state, "--backend", "http", "--remote", server.url, "repl"]
    var acknowledged: [String: String] = [:]  // title → the proposal id the client was told
    var generator = SystemRandomNumberGenerator()

    // How long one publication takes here, start to end: the kills land within it.
    let clock = ContinuousClock()
    let started = clock.now
    let calibration = try await DemoCLIBinary.run(
      client, input: "signin ada lovelace\nadd e10 Talk0\npropose Talk0\n")
    let span = max(Int((clock.now - started) / .milliseconds(1)), 50)
    record(calibration.outputText, title: "Talk0", into: &acknowledged)
    try #require(acknowledged["Talk0"] != nil, "\(transcript(calibration))")

    for round in 1...4 {
      let title = "Talk\(round)"
      let delay = Int.random(in: 0...span, using: &generator)
      let killing = Task { [server] in
        try await Task.sleep(for: .milliseconds(delay))
        try await server.kill()
      }
      let run = try await DemoCLIBinary.run(
        client, input: "signin ada lovelace\nadd e\(round + 10) \(title)\npropose \(title)\n")
      try await killing.value
      record(run.outputText, title: title, into: &acknowledged)

      // Restarted on the same file: the client resends an attempt that may have reached it
      // (same key); one that never started is proposed now.
      server = try await ServeProcess.start(database: database, port: server.port)
      let again = try await DemoCLIBinary.run(client, input: "signin ada lovelace\nretry\n")
      record(again.outputText, title: title, into: &acknowledged)
      var runs = [run, again]
      if acknowledged[title] == nil {
        let late = try await DemoCLIBinary.run(
          client, input: "signin ada lovelace\npropose \(title)\n")
        record(late.outputText, title: title, into: &acknowledged)
        runs.append(late)
      }

      let proposals = try await server.proposals()
      let id = try #require(
        acknowledged[title], "round \(round): never answered\n\(transcript(runs))")
      #expect(
        proposals.filter { $0.title == title }.map(\.id) == [id],
        "round \(round) (killed after \(delay) of \(span) ms): \(proposals)")
      #expect(Set(proposals.map(\.id)).count == proposals.count)
      for (earlier, earlierID) in acknowledged {
        #expect(
          proposals.filter { $0.title == earlier }.map(\.id) == [earlierID],
          "round \(round): \(earlier) (\(earlierID)) was lost or doubled")
      }
    }
    try await server.kill()
  }

  @Test("--backend sqlite --remote URL: the working copy in SQLite, changesets over HTTP")
  func sqliteWorkingCopyOnTheServer() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("demo.sqlite").path
    let system = try await DurableDemoSystem(path: database)
    let server = try DemoServer(service: DemoService(system: system))
    let url = server.baseURL.absoluteString
    let state = directory.appendingPathComponent("state").path

    let run = await runCLI(["--backend", "sqlite", "--remote", url, "--state", state])
    await server.stop()

    #expect(run.status == 0, "\(run.output)\(run.errors)")
    #expect(!run.output.contains("✗"), "\(run.output)")
    try expectInOrder(
      [
        "on the demo server \(url) (its SQLite protocol)",
        "✓ proposal P1 · content r3 · target published@r1", "✓ P1 merged: published@r3",
        "live: P1 merged into published@r3", "✓ proposal P3 · content r5 · target published@r3",
      ], in: run.output)
    let proposals = try await system.store.proposals()
    #expect(proposals.map(\.record.id) == ["P1", "P2", "P3"])
    #expect(Set(proposals.map(\.author)) == ["ada"])
    // The working copy is a SQLite database beside the state file, at the walk's last edit.
    let working = SQLiteWorkspaceClient(
      remote: system.store, root: URL(fileURLWithPath: state + ".workspaces"), capability: { nil })
    let copy = try #require(try working.preparedDatabase(for: "events"))
    #expect(
      try await copy.read { db in try db.value("SELECT date FROM events WHERE id = 'e1'") }
        == "2026-12-19")
    #expect(try await copy.baseline.revision == "r3")
  }

  @Test("--backend sqlite --remote URL of a server without a database: one clear line, exit 1")
  func sqliteOnAPlainServer() async throws {
    let server = try DemoServer()
    let run = await runCLI(["--backend", "sqlite", "--remote", server.baseURL.absoluteString])
    await server.stop()
    #expect(run.status == 1)
    #expect(run.errors.contains("is not a demo server with a database"), "\(run.errors)")
    #expect(run.errors.filter { $0 == "\n" }.count == 1, "\(run.errors)")
  }

  /// How each run ended and everything it printed, for a failure's message.
  private func transcript(_ runs: ProcessResult...) -> String { transcript(runs) }

  private func transcript(_ runs: [ProcessResult]) -> String {
    runs.enumerated().map { index, run in
      let ending = run.signal.map { "killed by signal \($0)" } ?? "exit \(run.status)"
      return "run \(index + 1), \(ending)\nout:\n\(run.outputText)\nerr:\n\(run.errorText)"
    }.joined(separator: "\n")
  }

  /// Keeps the id of `title`'s proposal when `output` says it was created or answered again.
  private func record(_ output: String, title: String, into acknowledged: inout [String: String]) {
    for match in output.matches(of: #/✓ proposal (P[0-9]+) · content/#) {
      acknowledged[title] = String(match.1)
    }
  }
}

/// `demo-cli serve --database FILE --port N`, as a separate process.
struct ServeProcess: Sendable {
  let process: RunningDemoCLI
  let port: UInt16

  var url: String { "http://127.0.0.1:\(port)" }

  /// Starts the server on `port` (a free one by default) and waits until it answers.
  static func start(database: String, port: UInt16? = nil) async throws -> ServeProcess {
    let port = try port ?? freeLoopbackPort()
    let process = try await DemoCLIBinary.start([
      "serve", "--database", database, "--port", String(port),
    ])
    let server = ServeProcess(process: process, port: port)
    let session = HTTPSession(
      baseURL: try #require(URL(string: server.url)), configuration: .init(timeout: .seconds(2)))
    for _ in 0..<200 {
      if let answer = try? await session.send(.get(DemoAPI.branches, access: .public)),
        answer.status == 200
      {
        return server
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    try await server.kill()
    throw ServeProcessError(description: "demo-cli serve did not answer on \(server.url) in 10 s")
  }

  /// Every proposal record the server holds (its review listing).
  func proposals() async throws -> [DemoProposal] {
    let session = HTTPSession(
      baseURL: try #require(URL(string: url)), configuration: .init(timeout: .seconds(10)))
    return try await session.send(.get(DemoAPI.reviewProposals, access: .public))
      .decode([DemoProposal].self)
  }

  /// SIGKILL, and waits until the process is gone.
  func kill() async throws {
    Foundation.kill(process.pid, SIGKILL)
    _ = try await process.finish()
  }
}

struct ServeProcessError: Error, CustomStringConvertible {
  var description: String
}

/// A loopback port nothing is bound to right now, below the kernel's ephemeral range.
///
/// The server process binds it a moment later, and binds it again after each SIGKILL. A port
/// from the ephemeral range (where a port chosen with port 0 comes from) can be handed
/// meanwhile to the listener of a test running in parallel, which would then answer in our
/// server's place (the likely cause of a client run that printed nothing, once in twenty
/// suite runs on a loaded machine). Ports below the range are only ever taken by an explicit
/// choice.
func freeLoopbackPort() throws -> UInt16 {
  var generator = SystemRandomNumberGenerator()
  for _ in 0..<100 {
    let port = UInt16.random(in: 20_000..<32_768, using: &generator)
    // Free when it can be bound without `SO_REUSEADDR` (no socket holds it); released at once.
    if (try? RefusingLoopbackPort(port: port)) != nil { return port }
  }
  throw POSIXError(.EADDRINUSE)
}
