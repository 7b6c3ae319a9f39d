import ComposableWorkspace
import DemoGitBackend
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

/// The demo on a real Git remote: a bare repository created by each test in its own folder.
@MainActor
@Suite("The Git backend", .requires(.git))
struct GitBackendTests {
  @Test(
    "The walk on a new bare remote: P1 and P2 against the first commit, the merge, the refresh, P3 against the new head"
  )
  func walk() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let remote = directory.appendingPathComponent("catalogue.git").path
    try await runGit(["init", "--quiet", "--bare", remote])

    let run = await runCLI(["--backend", "git", "--remote", remote])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.errors.isEmpty, "\(run.errors)")
    let text = run.output
    #expect(!text.contains("✗"), "\(text)")

    let first = try #require(
      text.firstMatch(of: #/ready at published@([0-9a-f]{7}) · 3 events/#)?.1)
    let second = try #require(
      text.firstMatch(of: #/baseline refreshed: published@[0-9a-f]{7} → published@([0-9a-f]{7})/#)?
        .1)
    #expect(first != second)
    let hash = "[0-9a-f]{40}"
    let key = "refs/proposals/[0-9a-f-]{36}"
    let expected = [
      "remote: \(remote) was empty; seeded it with published and festival",
      "demo-cli walk — the whole story, on the Git remote \(remote)",
      "✓ signed in as ada \\(session \(Describe.fingerprint("session-1"))\\)",
      "\\+ e4 “Poetry Evening” 2027-03-05 @ Old Bookshop",
      "✓ proposal \(key) · content \(hash) · target published@\(first)\n",
      "P1 is \(key): content [0-9a-f]{7}, proposed against the baseline published@\(first)",
      "working copy reset to the baseline published@\(first) · 3 events",
      "✓ proposal \(key) · content \(hash) · target published@\(first)\n",
      "P2 is \(key)",
      "The reviewer merges P1",
      "✓ \(key) merged: published@\(second) is the new head",
      "a fast-forward: P1's own revision is the branch's new head",
      "✓ baseline refreshed: published@\(first) → published@\(second)",
      "working copy reset to the baseline published@\(second) · 4 events",
      "✓ proposal \(key) · content \(hash) · target published@\(second)\n",
      "P3 is \(key)",
      "merged into \(second)",
      "✓ P1 and P2 were both created against published@\(first)",
      "✓ P1 was merged: published@\(second) is the new head",
      "✓ the baseline was refreshed from published@\(first) to published@\(second)",
      "✓ P3 was created against published@\(second)",
      "the remote stays: git --git-dir \(remote) for-each-ref",
    ]
    try expectInOrder(expected, in: text, asRegexes: true)

    // The remote holds the three proposals, and the branch moved to P1's commit.
    let refs = try await runGit([
      "--git-dir", remote, "for-each-ref", "--format=%(objectname) %(refname)",
    ])
    .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    let proposals = refs.filter { $0[1].hasPrefix("refs/proposals/") }
    #expect(proposals.count == 3, "\(refs)")
    let published = try #require(refs.first { $0[1] == "refs/heads/published" }?[0])
    #expect(published.hasPrefix(second))
    #expect(refs.contains { $0[1] == "refs/heads/festival" })
    let p1 = try #require(text.firstMatch(of: #/P1 is (refs/proposals/[0-9a-f-]{36})/#)?.1)
    #expect(proposals.first { $0[1] == p1 }?[0] == published, "P1 was not fast-forwarded")
    let catalogue = try await runGit(["--git-dir", remote, "show", "published:events/e4.json"])
    #expect(catalogue.contains(#""title" : "Poetry Evening""#))
  }

  @Test("--remote new creates a seeded bare repository and the walk exits 0")
  func newRemote() async throws {
    let run = await runCLI(["--backend", "git", "--remote", "new"])
    #expect(run.status == 0, "\(run.output)")
    let remote = try #require(run.output.firstMatch(of: #/remote: (\S+) \(new bare repository/#)?.1)
    defer {
      try? FileManager.default.removeItem(
        at: URL(fileURLWithPath: String(remote)).deletingLastPathComponent())
    }
    #expect(GitHeadGuardHook.isInstalled(in: URL(fileURLWithPath: String(remote))))
    let refs = try await runGit([
      "--git-dir", String(remote), "for-each-ref", "--format=%(refname)",
    ])
    #expect(refs.split(separator: "\n").filter { $0.hasPrefix("refs/proposals/") }.count == 3)
  }

  @Test("A --remote that is not a repository: one clear line, exit 1, nothing run")
  func badRemote() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("nowhere.git").path
    for (path, mode) in [(missing, "walk"), (directory.path, "repl")] {
      let run = await runCLI(
        ["--backend", "git", "--remote", path, mode], input: ["signin ada lovelace"])
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(
        run.errors.hasPrefix("demo-cli: --remote \(path) is not a usable Git repository: "),
        "\(run.errors)")
      #expect(run.errors.contains("does not appear to be a git repository"), "\(run.errors)")
      #expect(run.errors.filter { $0 == "\n" }.count == 1, "more than one line: \(run.errors)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test("The repl on a Git remote: propose, list, merge by key, refresh; selection refuses edits")
  func repl() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let remote = directory.appendingPathComponent("catalogue.git").path
    try await runGit(["init", "--quiet", "--bare", remote])
    _ = try await GitRemoteSetup().open(.existing(remote))
    let host = DemoHost(
      backend: GitBackend(remote: remote, root: directory.appendingPathComponent("workspaces")))
    await host.start()
    let executor = CommandExecutor(host: host)

    let signIn = try await executor.run("signin grace hopper")
    #expect(signIn.text.contains(#/workspace: ready at published@[0-9a-f]{7} · 3 events/#))
    let first = try #require(host.session?.baseline)
    #expect(first.revision.count == 40)
    let branches = try await executor.run("branches").text
    #expect(branches.contains(#/festival · head [0-9a-f]{7}/#))
    try await executor.run("add e4 Talk --venue Hall")
    #expect(try await executor.run("select festival").text.contains("the working copy has edits"))
    #expect(
      try await executor.run("propose Talk").text.contains("· target \(Describe.reference(first))"))
    let record = try #require(host.state.editing.content.proposals.first)
    let listing = try await executor.run("proposals").text
    #expect(listing.contains("\(record.id) “Talk” by grace"))
    #expect(listing.contains("· open"))

    let key = String(try #require(record.id.split(separator: "/").last))
    let merge = try await executor.run("merge \(key)")
    #expect(!merge.failed, "\(merge.text)")
    #expect(
      merge.text.contains("merged: published@\(record.contentRevision.prefix(7)) is the new head"))
    #expect(
      try await executor.run("merge \(record.id)").text
        == "merge refused: proposal \(record.id) is not open")
    #expect(try await executor.run("merge P9").failed)

    let refresh = try await executor.run("refresh")
    #expect(
      refresh.text.contains("→ published@\(record.contentRevision.prefix(7))"), "\(refresh.text)")
    #expect(try await executor.run("fresh").text.contains("· 4 events"))
    #expect(
      try await executor.run("select festival").text.contains("working copy reset to its 2 events"))
    #expect(host.session?.source.events.map(\.id) == ["f1", "f2"])
  }

  @Test(
    "The branch moves while a proposal is pushed: no ✓, the race is reported, no proposal is left")
  func headRace() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let remote = directory.appendingPathComponent("catalogue.git").path
    try await runGit(["init", "--quiet", "--bare", remote])
    let opened = try await GitRemoteSetup().open(.existing(remote))
    #expect(opened.headGuard == .clientChecked)
    // The remote holds every proposal push (its pack arrived, no ref written) until released.
    let held = directory.appendingPathComponent("held")
    let go = directory.appendingPathComponent("go")
    let hook = URL(fileURLWithPath: remote).appendingPathComponent("hooks/pre-receive")
    try await installExecutable(
      """
      #!/bin/sh
      if grep -q ' refs/proposals/'; then
        touch '\(held.path)'
        n=0
        while [ ! -e '\(go.path)' ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
      fi
      exit 0
      """, at: hook)
    let host = DemoHost(
      backend: GitBackend(remote: remote, root: directory.appendingPathComponent("workspaces")))
    await host.start()
    let executor = CommandExecutor(host: host)
    try await executor.run("signin ada lovelace", "add e4 Talk")
    let base = try #require(host.session?.baseline)

    let proposing = Task { await executor.execute(.propose(title: "Talk")) }
    for _ in 0..<600 where !FileManager.default.fileExists(atPath: held.path) {
      try await Task.sleep(for: .milliseconds(50))
    }
    try #require(
      FileManager.default.fileExists(atPath: held.path), "the proposal push never arrived")
    let other = directory.appendingPathComponent("other").path
    try await runGit(["clone", "--quiet", "--branch", "published", remote, other])
    try await runGit([
      "-C", other, "-c", "user.name=Grace", "-c", "user.email=g@example.com",
      "commit", "--quiet", "--allow-empty", "-m", "Elsewhere",
    ])
    try await runGit(["-C", other, "push", "--quiet", "origin", "published"])
    let moved = try await runGit(["-C", other, "rev-parse", "HEAD"]).trimmingCharacters(
      in: .newlines)
    try Data().write(to: go)

    let outcome = await proposing.value
    #expect(outcome.failed)
    #expect(!outcome.lines.contains { $0.tone == .success }, "\(outcome.text)")
    #expect(
      outcome.text
        == "no proposal created: published moved from \(base.revision.prefix(7)) to \(moved.prefix(7)); refresh first"
    )
    let refs = try await runGit([
      "--git-dir", remote, "for-each-ref", "--format=%(refname)", "refs/proposals/",
    ])
    #expect(refs.isEmpty, "\(refs)")
  }

  @Test(
    "An event file that is a symbolic link on the remote is never followed: no local file is shown")
  func symbolicLinkOnTheRemote() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let secret = directory.appendingPathComponent("secret.json")
    try Data(#"{"date":"TBA","id":"e2","title":"SECRET","venue":"TBA"}"#.utf8).write(to: secret)
    let remote = directory.appendingPathComponent("catalogue.git").path
    try await runGit(["init", "--quiet", "--bare", remote])
    _ = try await GitRemoteSetup().open(.existing(remote))
    let clone = directory.appendingPathComponent("clone").path
    try await runGit(["clone", "--quiet", "--branch", "published", remote, clone])
    try FileManager.default.removeItem(atPath: clone + "/events/e2.json")
    try FileManager.default.createSymbolicLink(
      atPath: clone + "/events/e2.json", withDestinationPath: secret.path)
    try await runGit(["-C", clone, "add", "--all"])
    try await runGit([
      "-C", clone, "-c", "user.name=M", "-c", "user.email=m@example.com", "commit", "--quiet", "-m",
      "Link",
    ])
    try await runGit(["-C", clone, "push", "--quiet", "origin", "published"])

    let run = await runCLI(
      ["--backend", "git", "--remote", remote, "repl"],
      input: ["signin ada lovelace", "list", "branches"])
    #expect(!run.output.contains("SECRET"), "\(run.output)")
    #expect(
      run.output.contains(
        "workspace: preparation failed: cannot read events/e2.json: it is a symbolic link; it is not followed"
      ),
      "\(run.output)")
  }

  @Test("A state file is reopened only with the backend it was made with")
  func stateFileBackend() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"]).status == 0)
    let run = await runCLI(["--backend", "git", "--remote", "new", "--state", path])
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(
      run.errors
        == "demo-cli: the state file \(path) belongs to the in-memory system, not to this remote\n")
  }
}
