import ComposableCore
import DemoBackendInterface
import DemoHTTPProtocol
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

/// Faults over real sockets, at the demo's level: the application (its store), the HTTP
/// backend and the reference service, with the fault put between them. (The layer's own fault
/// tests are in WorkspaceHTTPTests.)
@MainActor
@Suite("HTTP backend: faults over real sockets")
struct HTTPFaultTests {
  @Test("Server restarted mid-session: signed out cleanly, told once, no retry loop")
  func restartedServer() async throws {
    let server = try FaultyServer()
    let executor = await httpExecutor(httpBackend(server.baseURL))
    let host = executor.host
    try await executor.run("signin ada lovelace", "add e9 Talk")
    try await server.restart()

    let diff = try await executor.run("diff")
    #expect(diff.failed)
    #expect(
      diff.text.components(separatedBy: "the server ended ada's session").count == 2, "\(diff.text)"
    )
    #expect(host.state.session == nil, "the app is signed out")
    #expect(host.state.editing.authoring.context == nil)
    #expect(host.session?.source.events[id: "e9"] != nil, "the working copy and its edit stay")
    let afterRestart = server.exchanges.filter { $0.generation == 1 }
    #expect(afterRestart.allSatisfy { $0.status == 401 }, "\(afterRestart.map(\.request.path))")
    #expect((1...2).contains(afterRestart.count), "the diff's call, and maybe the channel's")

    // Nothing more goes out for the ended session: the next command is refused at home, the
    // live channel waits for a sign-in, and nobody is told again.
    let again = try await executor.run("diff")
    #expect(again.text.contains("not signed in"))
    #expect(!again.text.contains("the server ended"))
    _ = await host.live?.wait(timeout: .seconds(3)) { _ in false }
    #expect(server.exchanges.filter { $0.generation == 1 }.count == afterRestart.count)

    // The new server signs in anew; the kept working copy is ready again.
    let signIn = try await executor.run("signin ada lovelace")
    #expect(!signIn.failed, "\(signIn.text)")
    #expect(host.session?.source.events[id: "e9"] != nil)
    await host.close()
    await server.stop()
  }

  @Test("Answer lost after the record was created: the retry answers the same record, one record")
  func lostAnswer() async throws {
    let server = try FaultyServer()
    let dropped = LockIsolated(false)
    let answered = LockIsolated<[Int]>([])
    server.intercept { request, next in
      let response = await next()
      guard request.method == .post, request.path == DemoAPI.proposals else { return response }
      answered.withValue { $0.append(response.status) }
      guard
        !dropped.withValue({ wasDropped -> Bool in
          defer { wasDropped = true }
          return wasDropped
        })
      else { return response }
      return .closeWithoutAnswer
    }
    let executor = await httpExecutor(httpBackend(server.baseURL))
    try await executor.run("signin ada lovelace", "add e9 Talk")
    let proposed = try await executor.run("propose Talk")
    #expect(!proposed.failed, "\(proposed.text)")
    #expect(proposed.text.contains("proposal P1"))
    let records = try await server.system.allProposals()
    #expect(records.map(\.id) == ["P1"], "one record")
    let posts = server.exchanges.filter {
      $0.request.method == .post && $0.request.path == DemoAPI.proposals
    }
    #expect(answered.current == [201, 200], "created (its answer lost), then replayed")
    #expect(posts.count == 2)
    #expect(Set(posts.map { $0.request.headers["Idempotency-Key"] ?? "" }).count == 1)
    #expect(Set(posts.map(\.request.body)).count == 1, "the same body both times")
    #expect(executor.host.journal.pending.isEmpty)
    await executor.host.close()
    await server.stop()
  }

  @Test(
    "Connection reset mid-stream: the channel resumes from Last-Event-ID, nothing lost or doubled")
  func resetStream() async throws {
    let server = try FaultyServer()
    let reset = Signal()
    let reconnected = Signal()
    let release = Signal()
    let connections = LockIsolated(0)
    server.intercept { request, next in
      guard request.path == DemoAPI.events else { return await next() }
      let n = connections.withValue { count -> Int in
        count += 1
        return count
      }
      if n == 2 {
        // Held while the test makes announcements the client is not connected for.
        reconnected.fire()
        try? await release.wait(seconds: 30, "the test to let the reconnection through")
      }
      var response = await next()
      if n == 1, case .eventStream(let produce) = response.body {
        response.body = .eventStream { writer in
          await withTaskGroup(of: Void.self) { group in
            group.addTask { await produce(writer) }
            group.addTask { try? await reset.wait(seconds: 30, "the test to reset the stream") }
            await group.next()
            group.cancelAll()
          }
          writer.resetConnection()
        }
      }
      return response
    }
    let executor = await httpExecutor(httpBackend(server.baseURL))
    executor.reportsLiveNotices = true
    let live = try #require(executor.host.live)
    var outcomes: [CommandOutcome] = []
    outcomes.append(try await executor.run("signin ada lovelace", "add e9 Talk", "propose Talk"))
    _ = await live.wait(timeout: .seconds(10)) { Self.notice($0)?.id == "1" }
    reset.fire()
    try await reconnected.wait(seconds: 15, "the channel to reconnect")
    for line in ["fresh", "rename e2 Fair", "propose Fair", "merge P1"] {
      outcomes.append(try await executor.run(line))
    }
    release.fire()
    let last = await live.wait(timeout: .seconds(10)) { Self.notice($0)?.id == "3" }
    #expect(last != nil, "the announcements made while disconnected arrived")
    outcomes.append(try await executor.run("status"))
    let shown = outcomes.flatMap(\.lines).map(\.text).filter { $0.hasPrefix("live: ") }
    #expect(
      shown == [
        "live: P1 “Talk” proposed by ada against published@r1",
        "live: P2 “Fair” proposed by ada against published@r1",
        "live: P1 merged into published@r2 — refresh available",
      ], "\(shown)")
    let streams = server.exchanges.filter { $0.request.path == DemoAPI.events }.map(\.request)
    #expect(streams.count == 2)
    #expect(streams.last?.headers["Last-Event-ID"] == "1")
    await executor.host.close()
    await server.stop()
  }

  @Test("401 mid-publication: the form keeps its request and key; the retry creates one record")
  func unauthorizedPublication() async throws {
    let server = try FaultyServer()
    let refused = LockIsolated(false)
    server.intercept { request, next in
      guard request.method == .post, request.path == DemoAPI.proposals,
        !refused.withValue({ wasRefused -> Bool in
          defer { wasRefused = true }
          return wasRefused
        })
      else { return await next() }
      // The session died on the server just before this request.
      var answer = HTTPServerResponse.json(
        #"{"status":401,"code":"signed_out","title":"Signed out","detail":"there is no live session"}"#,
        status: 401)
      answer.headers["Content-Type"] = DemoAPI.Problem.contentType
      return answer
    }
    let executor = await httpExecutor(httpBackend(server.baseURL))
    let host = executor.host
    try await executor.run("signin ada lovelace", "add e9 Talk")
    let proposed = try await executor.run("propose Talk")
    #expect(proposed.failed)
    #expect(proposed.text.contains("authorization was lost"), "\(proposed.text)")
    #expect(proposed.text.contains("the server ended ada's session"))
    let request = try #require(
      host.state.editing.content.form.retryableRequest, "the form kept its intent")
    #expect(try await server.system.allProposals().isEmpty)

    try await executor.run("signin ada lovelace")
    #expect(
      host.state.editing.content.form.retryableRequest == request, "signing in again keeps it")
    let retried = try await executor.run("retry")
    #expect(!retried.failed, "\(retried.text)")
    let records = try await server.system.allProposals()
    #expect(
      records.map(\.idempotencyKey) == [request.idempotencyKey], "one record, under the kept key")
    let keys = server.exchanges.filter {
      $0.request.path == DemoAPI.proposals && $0.request.method == .post
    }
    .map { $0.request.headers["Idempotency-Key"] ?? "" }
    #expect(keys.count == 2 && Set(keys).count == 1, "both attempts sent the same key")
    await host.close()
    await server.stop()
  }

  @Test("A server that never answers: each call is bounded by the timeout, with a clear error")
  func silentServer() async throws {
    let server = try FaultyServer()
    let silent = LockIsolated<String?>(nil)
    server.intercept { request, next in
      guard let path = silent.current, request.path.hasPrefix(path) else { return await next() }
      // Silent until the client gives up (the server cancels this when it hangs up).
      try? await Task.sleep(for: .seconds(60))
      return .status(503)
    }
    // 3 s, not less: on a loaded 2-core machine an answered request can take over a second.
    let executor = await httpExecutor(
      httpBackend(server.baseURL, timeout: .seconds(3), publishAttempts: 2))
    let host = executor.host
    let added = try await executor.run("signin ada lovelace", "add e9 Talk")
    try #require(!added.failed && host.session != nil, "signed in and ready: \(added.text)")

    silent.setValue("/v1/branches/published/revisions")
    let diff = try await within(30, "the diff to give up") { @MainActor in
      try await executor.run("diff")
    }
    #expect(diff.failed)
    #expect(
      diff.text.contains(
        "could not compare changes: GET /v1/branches/published/revisions/r1 got no answer within 3 s."
      ),
      "\(diff.text)")
    #expect(host.state.session != nil, "a silent server is not a sign-out")
    #expect(host.session != nil)

    silent.setValue(DemoAPI.proposals)
    let proposed = try await within(30, "the proposal to give up") { @MainActor in
      try await executor.run("propose Talk")
    }
    #expect(proposed.failed)
    #expect(proposed.text.contains("got no definite answer in 2 attempts"), "\(proposed.text)")
    #expect(proposed.text.contains("retry it with the same key"))
    #expect(!host.journal.pending.isEmpty, "its outcome is unknown: the intent stays journaled")
    #expect(host.state.editing.content.form.retryableRequest != nil)

    silent.setValue(DemoAPI.authorize)
    let signIn = try await within(30, "the sign-in to give up") { @MainActor in
      try await executor.run("signin grace hopper")
    }
    #expect(
      signIn.text.contains("sign-in refused: GET /v1/auth/authorize got no answer within 3 s."),
      "\(signIn.text)")
    await host.close()
    await server.stop()
  }

  nonisolated private static func notice(_ announcement: BackendAnnouncement) -> LiveNotice? {
    if case .notice(let notice) = announcement { notice } else { nil }
  }
}
