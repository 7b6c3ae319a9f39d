import DemoHTTPProtocol
import DemoServer
import Foundation
import HTTPTestSupport
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

@testable import ProcessSupport
@testable import demo_cli

/// The demo on a demo server over HTTP: the same walk, the repl, and the state file.
@MainActor
@Suite("The HTTP backend in demo-cli")
struct HTTPBackendWalkTests {
  /// The walk's promises, in order, on any demo server.
  static let walkLines = [
    "✓ signed in as ada (session ",
    "✓ authoring: admitted as ada · grant grant-1 · may edit, publish",
    "workspace: ready at published@r1 · 3 events",
    "the baseline is the revision published@r1 of the demo server",
    "+ e4 “Poetry Evening” 2027-03-05 @ Old Bookshop",
    "✓ proposal P1 · content c",
    "working copy reset to the baseline published@r1 · 3 events",
    "✓ proposal P2 · content c",
    "✓ P1 merged: published@r2 is the new head",
    "live: P1 merged into published@r2 — refresh available",
    "announced by the server on its event stream (SSE), not polled (event 3)",
    "✓ baseline refreshed: published@r1 → published@r2",
    "working copy reset to the baseline published@r2 · 4 events",
    "✓ proposal P3 · content c",
    "✓ P1 and P2 were both created against published@r1",
    "✓ P1 was merged: published@r2 is the new head",
    "✓ the baseline was refreshed from published@r1 to published@r2",
    "✓ P3 was created against published@r2",
    "✓ P1's merge was announced live",
  ]

  @Test("--remote new: a server in this process, the whole walk over HTTP, the live notice by SSE")
  func walkOnNewServer() async throws {
    let run = await runCLI(["--backend", "http", "--remote", "new"])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.errors.isEmpty, "\(run.errors)")
    #expect(!run.output.contains("✗"), "\(run.output)")
    let url = try #require(
      run.output.firstMatch(of: #/server: (http://127\.0\.0\.1:[0-9]+) \(a new demo server/#)?.1)
    try expectInOrder(
      ["demo-cli walk — the whole story, on the demo server \(url)"] + Self.walkLines,
      in: run.output)
    #expect(!run.output.contains("git --git-dir"))
    // The server it started is gone with the run.
    let probe = HTTPSession(
      baseURL: try #require(URL(string: String(url))), configuration: .init(timeout: .seconds(2)))
    await #expect(throws: HTTPSessionError.self) {
      try await probe.send(.get(DemoAPI.branches, access: .public))
    }
  }

  @Test("--remote URL: the walk against a running server, whose system holds the records after")
  func walkOnRunningServer() async throws {
    let server = try DemoServer()
    let run = await runCLI(["--backend", "http", "--remote", server.baseURL.absoluteString])
    #expect(run.status == 0, "\(run.output)")
    try expectInOrder(Self.walkLines, in: run.output)
    let records = try await server.service.system.allProposals()
    #expect(records.map(\.id) == ["P1", "P2", "P3"])
    #expect(records.map(\.baseRevision) == ["r1", "r1", "r2"])
    #expect(try await server.service.system.head(of: "published").id == "r2")
    await server.stop()
  }

  @Test("The repl on HTTP: propose, merge, refresh, sign-out, a reader's refusal, a wrong password")
  func repl() async throws {
    let server = try DemoServer()
    let url = server.baseURL.absoluteString
    let run = await runCLI(
      ["--backend", "http", "--remote", url, "repl"],
      input: [
        "signin ada lovelace", "add e9 Talk", "propose Talk", "merge P1", "refresh", "status",
        "signout", "diff", "signin linus torvalds", "signin ada wrong",
      ])
    let text = run.output
    try expectInOrder(
      [
        "✓ signed in as ada", "✓ authoring: admitted as ada",
        "✓ proposal P1",
        "✓ P1 merged: published@r2 is the new head",
        "✓ baseline refreshed: published@r1 → published@r2",
        "session: ada (session ",
        "✓ signed out ada",
        "✗ not signed in; sign in before you compare changes",
        "✓ signed in as linus", "authoring denied: Linus may read but not author",
        "✗ sign-in refused: wrong username or password (401)",
      ], in: text)
    #expect(run.status == 1, "the refused commands make a piped repl exit 1")
    #expect(!text.contains("lovelace") && !text.contains("wrong\n"), "passwords are masked")
    await server.stop()
  }

  @Test("A state file keeps the workspace, never the session: reopened, the person signs in again")
  func stateFile() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try DemoServer()
    let url = server.baseURL.absoluteString
    let state = directory.appendingPathComponent("state.json").path
    let first = await runCLI(
      ["--backend", "http", "--remote", url, "--state", state, "repl"],
      input: ["signin ada lovelace", "add e9 Talk"])
    #expect(first.status == 0, "\(first.output)")
    let saved = try #require(try StateFileStorage(path: state).load())
    #expect(saved.backend == "http" && saved.remote == url)

    let second = await runCLI(
      ["--backend", "http", "--remote", url, "--state", state, "repl"],
      input: ["status", "signin ada lovelace", "propose Talk"])
    try expectInOrder(
      [
        "session: signed out", "workspace: ready at published@r1 · 4 events",
        "✓ signed in as ada", "✓ proposal P1",
      ], in: second.output)
    #expect(second.status == 0, "\(second.output)")

    // Another backend, or another server, is refused in one line; the file is left alone.
    let memory = await runCLI(["--state", state, "repl"], input: ["status"])
    #expect(memory.status == 1)
    #expect(
      memory.errors
        == "demo-cli: the state file \(state) belongs to the demo server \(url); add --backend http --remote \(url)\n"
    )
    let fresh = await runCLI(["--backend", "http", "--remote", "new", "--state", state])
    #expect(fresh.errors.contains("belongs to the demo server \(url), not to this server"))
    let git = await runCLI(["--backend", "git", "--remote", "new", "--state", state])
    #expect(git.errors.contains("belongs to the demo server \(url), not to this remote"))
    await server.stop()
  }

  @Test("A --remote that is not a demo server is refused in one line, exit 1")
  func unusableRemote() async throws {
    // A port nothing listens on (a server that just stopped).
    let gone = try DemoServer()
    let url = gone.baseURL.absoluteString
    await gone.stop()
    let run = await runCLI(["--backend", "http", "--remote", url])
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(
      run.errors.hasPrefix("demo-cli: --remote \(url) is not a usable demo server: "),
      "\(run.errors)")
    #expect(run.errors.filter { $0 == "\n" }.count == 1)
  }

  @Test("Two processes: demo-cli serve, and the walk in another demo-cli over HTTP")
  func twoProcesses() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("serve.log").path
    let serve = try await ChildProcess.spawn(
      executable: "/bin/sh",
      arguments: ["-c", #"exec "$0" serve --port 0 > "$1" 2>&1"#, DemoCLIBinary.path, log],
      environment: DemoCLIBinary.environment(), input: nil)
    let collecting = Task.detached { serve.collect() }
    defer { kill(serve.pid, SIGKILL) }
    let url = try await within(30, "demo-cli serve to listen") {
      while true {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        if let url = text.firstMatch(of: #/listening on (http://127\.0\.0\.1:[0-9]+)/#)?.1 {
          return String(url)
        }
        try await Task.sleep(for: .milliseconds(50))
      }
    }
    let walk = try await DemoCLIBinary.run(["--backend", "http", "--remote", url, "--no-color"])
    #expect(walk.status == 0, "\(walk.outputText)\(walk.errorText)")
    try expectInOrder(Self.walkLines, in: walk.outputText)

    kill(serve.pid, SIGTERM)
    let ended = try await DemoCLIBinary.bounded { await collecting.value }
    #expect(ended.signal == SIGTERM, "serve ends with the signal that stopped it")
    let served = try String(contentsOfFile: log, encoding: .utf8)
    #expect(served.components(separatedBy: "POST /v1/proposals → 201").count == 4, "\(served)")
    #expect(served.contains("POST /v1/auth/token → 200"))
    #expect(served.contains("GET /v1/events → 200"))
    #expect(!served.contains("?"), "no query (a state, a challenge) is logged")
  }
}
