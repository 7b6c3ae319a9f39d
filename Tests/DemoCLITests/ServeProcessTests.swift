import DemoHTTPProtocol
import Foundation
import HTTPTestSupport
import LoopbackSockets
import Testing
import WorkspaceHTTP

@testable import DemoHTTPBackend

/// `demo-cli serve` itself, as a separate process over real sockets: what its users run.
@Suite("demo-cli serve, as a process")
struct ServeProcessTests {
  /// Starts `demo-cli serve --port 0` with its output in `folder/log`; ends it (SIGTERM) once
  /// `folder/stop` exists, or after 60 s.
  private static let serveScript = """
    "$0" serve --port 0 > "$1/log" 2>&1 &
    server=$!
    i=0
    while [ ! -e "$1/stop" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
    kill -TERM $server
    wait $server
    echo "serve ended: $?"
    """

  @Test("64 calls at once through one session: nobody is signed out; refusals are logged too")
  func concurrentCallsAndTheLog() async throws {
    let folder = try temporaryDirectory()
    let serving = Task { try await DemoCLIBinary.shell(Self.serveScript, [folder.path]) }
    let stop = folder.appendingPathComponent("stop")
    defer { _ = FileManager.default.createFile(atPath: stop.path, contents: Data()) }
    let log = folder.appendingPathComponent("log")
    let server = try await within(30, "demo-cli serve to listen") { () -> URL in
      while true {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }),
          let url = line.split(separator: " ").last.flatMap({ URL(string: String($0)) })
        {
          return url
        }
        try await Task.sleep(for: .milliseconds(50))
      }
    }

    let session = HTTPSession(
      baseURL: server,
      configuration: HTTPSessionConfiguration(
        csrf: .echoCookie(DemoAPI.csrfCookie, asHeader: DemoAPI.csrfHeader),
        timeout: .seconds(30)))
    let signIn = try PKCESignIn()
    try await BrowserLogin(server: server, configuration: HTTPBackendConfiguration())
      .complete(signIn, username: "ada", password: "lovelace")
    let code = try await signIn.waitForCode(timeout: .seconds(10))
    let exchange = try await session.send(
      .authorizationCodeExchange(
        PKCEExchange(code: code, verifier: signIn.pkce.verifier, redirectURI: signIn.redirectURI),
        path: DemoAPI.token))
    try #require(exchange.status == 200, "the exchange answered \(exchange.status)")
    session.beginSession()
    let admission = try await session.send(HTTPRequest(method: .post, path: DemoAPI.admissions))
    try #require(admission.status == 201, "admission answered \(admission.status)")
    let grant = try admission.decode(DemoAPI.Grant.self)

    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for call in 0..<64 {
        group.addTask {
          switch call % 4 {
          case 0:
            try await session.send(HTTPRequest(method: .post, path: DemoAPI.admissions)).status
          case 1: try await session.send(.get(DemoAPI.grant(grant.id))).status
          default: try await session.send(.get(DemoAPI.me)).status
          }
        }
      }
      return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
    }
    #expect(statuses == [201: 16, 200: 48], "statuses: \(statuses)")
    #expect(session.status == .signedIn)

    // A request the server refuses before any handler sees it is logged like the others.
    let port = UInt16(server.port ?? 0)
    let refused = try await onThread { () -> String in
      let connection = try LoopbackConnection.connect(toLoopbackPort: port)
      defer { connection.close() }
      connection.setReceiveTimeout(milliseconds: 5000)
      try connection.send(
        Array("GET /v1/me?code=secret HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n".utf8))
      var answer: [UInt8] = []
      while let chunk = try? connection.receive(upTo: 4096), !chunk.isEmpty { answer += chunk }
      return String(decoding: answer, as: UTF8.self)
    }
    #expect(refused.hasPrefix("HTTP/1.1 400 "))

    _ = FileManager.default.createFile(atPath: stop.path, contents: Data())
    let ended = try await serving.value
    let output = String(decoding: ended.standardOutput, as: UTF8.self)
    // Ended by the interruption, as documented: 128 + SIGTERM.
    #expect(output.contains("serve ended: 143"), "\(output)")
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("GET /v1/me → 200") }.count == 32)
    #expect(lines.contains("GET /v1/me → 400 (Malformed request: more than one Host header.)"))
    #expect(!lines.contains { $0.contains("secret") }, "a query reached the log")
  }
}
