import ComposableCore
import DemoHTTPProtocol
import Foundation
import LoopbackHTTPServer
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

/// Secrets never leak: every cookie value, CSRF token, PKCE code, verifier and state, login
/// id and password that crossed the wire is searched for in everything the demo wrote.
@MainActor
@Suite("HTTP backend: secrets")
struct HTTPSecretsTests {
  @Test("No secret of the wire in any log line, message, transcript or state file")
  func noSecretLeaks() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let serverLines = Lines()
    // Every answer rotates the cookies: as many secrets on the wire as possible.
    let server = try FaultyServer(
      configuration: .init(cookieRotation: .init(interval: .zero), log: serverLines.append))
    let secrets = LockIsolated<Set<String>>(["lovelace", "hopper", "not-the-password"])
    server.intercept { request, next in
      var found = Array(request.cookies.values) + Array(request.formFields.values)
      found += ["state", "code", "code_verifier"].compactMap(request.queryValue)
      found += [DemoAPI.csrfHeader].compactMap { request.headers[$0] }
      let response = await next()
      for line in response.headers.values(for: "Set-Cookie") {
        found.append(String(line.prefix { $0 != ";" }.drop { $0 != "=" }.dropFirst()))
      }
      let location = response.headers["Location"].flatMap(URLComponents.init(string:))
      found += (location?.queryItems ?? []).compactMap(\.value)
      if case .bytes(let body) = response.body,
        let login = String(decoding: body, as: UTF8.self).firstMatch(
          of: #/name="login" value="([^"]+)"/#)?.1
      {
        found.append(String(login))
      }
      // Short values ("ada"), the grant type and the redirect URI are not secrets.
      let values = found.filter {
        $0.count >= 6 && $0 != "authorization_code" && !$0.hasPrefix("http://127.0.0.1:")
      }
      secrets.withValue { $0.formUnion(values) }
      return response
    }
    let logLines = Lines()
    let host = DemoHost(backend: httpBackend(server.baseURL, logger: logLines.logger))
    let executor = CommandExecutor(host: host)
    let transcript = CapturedOutput()
    #expect(
      await Walk(executor: executor, narrator: Narrator(sink: transcript, style: .plain)).run())

    // Refusals and errors: a wrong password, a server that lost the session, signing in again.
    var outcomes: [CommandOutcome] = []
    outcomes.append(try await executor.run("signin ada not-the-password"))
    try await server.restart()
    for line in [
      "diff", "propose Again", "signin ada lovelace", "add e9 Talk", "propose Talk", "signout",
    ] {
      outcomes.append(try await executor.run(line))
    }
    let state = directory.appendingPathComponent("state.json").path
    try StateFileStorage(path: state).save(await host.snapshot())
    await host.close()
    await server.stop()

    let written =
      logLines.all + serverLines.all + outcomes.map(\.text)
      + [
        transcript.output, transcript.errors, host.state.notice ?? "",
        try String(contentsOfFile: state, encoding: .utf8),
      ]
    let collected = secrets.current
    #expect(collected.count > 30, "the wire's secrets were collected (\(collected.count))")
    #expect(logLines.all.count > 50, "the session logged its requests")
    // Where each leaked, by line: never the whole text (the expectation would print it).
    let leaks = collected.flatMap { secret in
      written.flatMap { $0.split(separator: "\n") }.filter { $0.contains(secret) }
        .map { $0.replacingOccurrences(of: secret, with: "<SECRET \(secret.count)>") }
    }
    #expect(leaks.isEmpty, "secrets leaked in:\n\(leaks.joined(separator: "\n"))")
  }
}
