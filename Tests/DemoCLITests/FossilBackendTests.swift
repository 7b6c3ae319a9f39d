import ComposableWorkspace
import DemoFossilBackend
import FossilWorkspace
import Foundation
import HTTPTestSupport
import ProcessTestSupport
import Testing

@testable import demo_cli

/// The demo on a real `fossil server`: sign-in, admission, proposals and the reviewer's merge
/// all on the server.
@MainActor
@Suite("The Fossil backend", .requires(.fossil))
struct FossilBackendTests {
  @Test(
    "The walk on a new Fossil server: P1 and P2 against the first check-in, the reviewer's merge, the notice, the refresh, P3"
  )
  func walk() async throws {
    try await Turns.taking(.fossil) {
      let run = await runCLI(["--backend", "fossil", "--remote", "new"])
      let repository = run.output.firstMatch(of: #/the repository stays: fossil ui (\S+)/#)?.1
      defer {
        if let repository {
          try? FileManager.default.removeItem(
            at: URL(fileURLWithPath: String(repository)).deletingLastPathComponent())
        }
      }
      #expect(run.status == 0, "\(run.output)\(run.errors)")
      #expect(run.errors.isEmpty, "\(run.errors)")
      let text = run.output
      #expect(!text.contains("✗"), "\(text)")
      let url = try #require(
        text.firstMatch(of: #/remote: (http://127\.0\.0\.1:\d+) \(a new Fossil/#)?.1)
      let first = try #require(
        text.firstMatch(of: #/ready at published@([0-9a-f]{7}) · 3 events/#)?.1)
      let second = try #require(
        text.firstMatch(
          of: #/baseline refreshed: published@[0-9a-f]{7} → published@([0-9a-f]{7})/#)?
          .1)
      #expect(first != second)
      let key = "proposal-[0-9a-f-]{36}"
      let expected = [
        "demo-cli walk — the whole story, on the Fossil server \(url)",
        "✓ signed in as ada \\(session [0-9a-f]{8}\\)",
        "✓ authoring: admitted as ada · grant ada@[0-9a-f]{40} · may edit, publish",
        "\\+ e4 “Poetry Evening” 2027-03-05 @ Old Bookshop",
        "✓ proposal \(key) · content [0-9a-f]{64} · target published@\(first)\n",
        "P1 is \(key): content [0-9a-f]{7}, proposed against the baseline published@\(first)",
        "✓ proposal \(key) · content [0-9a-f]{64} · target published@\(first)\n",
        "✓ \(key) merged: published@\(second) is the new head",
        "live: Published moved — refresh available: published@\(second) is the newest revision, "
          + "the baseline is published@\(first)",
        "seen by polling the head of published while signed in \\(every 2.0 seconds, up to every 4.0 ",
        "✓ baseline refreshed: published@\(first) → published@\(second)",
        "✓ proposal \(key) · content [0-9a-f]{64} · target published@\(second)\n",
        "merged into \(second)",
        "✓ P1 and P2 were both created against published@\(first)",
        "✓ P1 was merged: published@\(second) is the new head",
        "✓ P3 was created against published@\(second)",
        "✓ P1's merge was announced live",
        "the repository stays: fossil ui ",
      ]
      try expectInOrder(expected, in: text, asRegexes: true)
      // The server demo-cli started is stopped.
      let server = try #require(URL(string: String(url)))
      await #expect(throws: FossilUnavailable.self) {
        try await FossilSession(baseURL: server).projectCode()
      }
    }
  }

  @Test("On an existing server: a reader is denied with the server's reason, an author is admitted")
  func admission() async throws {
    try await Turns.taking(.fossil) {
      let server = try await FossilDemoServer.start()
      let run = await runCLI(
        ["--backend", "fossil", "--remote", server.url, "repl"],
        input: ["signin linus torvalds", "signin ada wrong", "signin ada lovelace", "status"])
      await server.stop()
      #expect(run.status == 1, "\(run.output)")
      #expect(
        run.output.contains(
          #"authoring denied: linus may not check in to this repository (capabilities "o"): read-only; signed in read-only"#
        ),
        "\(run.output)")
      #expect(
        run.output.contains("sign-in refused: The Fossil server refused the sign-in: Login failed"),
        "\(run.output)")
      #expect(run.output.contains("✓ authoring: admitted as ada"), "\(run.output)")
      #expect(!run.output.contains("lovelace") && !run.output.contains("torvalds"))
    }
  }

  @Test("The repl hears the watched head move: 'live: Published moved — refresh available'")
  func headMovedInTheRepl() async throws {
    try await Turns.taking(.fossil) {
      try await withFossilHost { host, executor, _ in
        executor.reportsLiveNotices = true
        try await executor.run("signin ada lovelace", "add e9 Talk", "propose Talk")
        let baseline = try #require(host.session?.baseline)
        let form = host.state.editing.content.form
        let published: ProposalRecord? =
          if case .published(let record) = form { record } else { nil }
        let record = try #require(published, "no proposal: \(form)")
        // Nobody has moved the head yet: the head the watch started with is the baseline.
        #expect(!(try await executor.run("status")).text.contains("live:"))
        let merged = try await executor.run("merge \(record.id)")
        #expect(!merged.failed, "\(merged.text)")
        let head = try #require(await host.catalogue.head(of: baseline.branch))
        let seen = await host.live?.wait(timeout: .seconds(15)) {
          $0 == .branchHead(WorkspaceBranchReference(branch: baseline.branch, revision: head))
        }
        #expect(seen != nil, "the watch did not see published@\(head) within 15 s")
        let status = try await executor.run("status")
        let expected =
          "live: Published moved — refresh available: published@\(Describe.revision(head)) is "
          + "the newest revision, the baseline is \(Describe.reference(baseline))"
        // Told once, after whichever command ran when the watch saw it (the merge itself, when
        // the poll came back before its narration ended).
        let told = merged.text + "\n" + status.text
        #expect(
          told.components(separatedBy: expected).count == 2, "\(merged.text)\n\(status.text)")
        // Told once: the next command says nothing more.
        #expect(!(try await executor.run("status")).text.contains("live:"))
      }
    }
  }

  @Test("'discuss P1 …' posts to the proposal's forum thread as the person; a reader may not")
  func discussion() async throws {
    try await Turns.taking(.fossil) {
      try await withFossilHost { host, executor, server in
        try await executor.run("signin ada lovelace", "add e9 Talk", "propose Talk")
        let record = try #require(host.state.editing.content.proposals.first)
        #expect(
          try await executor.run("discuss P1").text
            == "P1's discussion on the Fossil forum is empty")

        let posted = try await executor.run("discuss P1 Is Friday right?")
        #expect(!posted.failed, "\(posted.text)")
        let lines = posted.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "posted to P1's discussion as ada")
        #expect(lines.dropFirst().first == "P1's discussion on the Fossil forum (1 post):")
        #expect(
          lines.last?.wholeMatch(
            of: /ada, \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC: Is Friday right\?/) != nil,
          "\(posted.text)")
        // What the server holds: a forum thread about the proposal, with ada's post.
        let reader = FossilWorkspaceClient(
          session: FossilSession(baseURL: server.opened.url),
          configuration: FossilWorkspaceConfiguration(root: try temporaryDirectory()),
          capability: { nil })
        let thread = try await reader.discussion(of: record.id)
        #expect(thread.posts.map(\.author) == ["ada"])
        #expect(thread.posts.first?.title?.hasSuffix("[\(record.id)]") == true)

        try await executor.run("signin linus torvalds")
        let refused = try await executor.run("discuss \(record.id) Me too")
        #expect(refused.failed)
        #expect(
          refused.text.hasPrefix("discuss: linus is not permitted to post here"),
          "\(refused.text)")
        let shown = try await executor.run("discuss \(record.id)")
        #expect(shown.text.contains("(1 post):"), "\(shown.text)")
      }
    }
  }

  @Test("A logout elsewhere ends the app's session once: signed out, not a failure loop")
  func logoutElsewhere() async throws {
    try await Turns.taking(.fossil) {
      try await withFossilHost { host, executor, server in
        try await executor.run("signin ada lovelace")
        #expect(host.state.session?.username == "ada")
        // Fossil keeps one login per user: ada signing in and out elsewhere ends this one.
        let elsewhere = FossilSession(baseURL: server.opened.url)
        _ = try await elsewhere.signIn(name: "ada", password: "lovelace")
        try await elsewhere.signOut()
        let refresh = try await executor.run("refresh")
        #expect(refresh.text.contains("the server ended ada's session"), "\(refresh.text)")
        #expect(host.state.session == nil, "the app is signed out")
        let again = try await executor.run("status")
        #expect(!again.text.contains("the server ended"), "told once: \(again.text)")
        #expect(again.text.contains("session: signed out"), "\(again.text)")
        // Signing in again works, and signing out then is the app's own: no announcement.
        let back = try await executor.run("signin ada lovelace")
        #expect(!back.failed, "\(back.text)")
        let out = try await executor.run("signout")
        #expect(!out.text.contains("the server ended"), "\(out.text)")
      }
    }
  }

  /// Runs `body` on a started host of a Fossil server of its own, with an executor; closes the
  /// host, stops the server and removes the folder whatever `body` does.
  private func withFossilHost(
    _ body: (DemoHost, CommandExecutor, FossilDemoServer) async throws -> Void
  ) async throws {
    let server = try await FossilDemoServer.start()
    let folder = try temporaryDirectory()
    let host = DemoHost(
      backend: FossilBackend(
        opened: server.opened, root: folder.appendingPathComponent("workspaces")))
    do {
      await host.start()
      try await body(host, CommandExecutor(host: host), server)
    } catch {
      await host.close()
      await server.stop()
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
    await host.close()
    await server.stop()
    try? FileManager.default.removeItem(at: folder)
  }

  @Test("A server that does not answer as Fossil, or a URL that is not one, is refused in one line")
  func refused() async throws {
    let run = await runCLI(["--backend", "fossil", "--remote", "ftp://example.invalid/repo"])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "demo-cli: --remote ftp://example.invalid/repo is not a usable Fossil server: it is not an http(s) URL\n"
    )
    #expect(throws: UsageError.fossilWithoutRemote) {
      try Invocation.parse(["--backend", "fossil"])
    }
  }
}

/// A Fossil server seeded by `--remote new`'s own setup, for tests that pass its URL.
struct FossilDemoServer {
  let opened: FossilRemoteSetup.Opened

  static func start() async throws -> FossilDemoServer {
    FossilDemoServer(opened: try await FossilRemoteSetup().open(.new))
  }

  var url: String { opened.url.absoluteString }

  /// Stops the server and removes the repository's folder.
  func stop() async {
    await opened.server?.stop()
    if let repository = opened.repository {
      try? FileManager.default.removeItem(at: repository.deletingLastPathComponent())
    }
  }

  /// The proposal branches on the server.
  func proposals() async throws -> Int {
    try await FossilReader(session: FossilSession(baseURL: opened.url)).branches()
      .filter { $0.hasPrefix("proposal-") }.count
  }
}
