import ComposableCore
import Foundation
import HTTPTestSupport
import ProcessTestSupport
import Testing
import WorkspaceJournal

@testable import demo_cli

/// Crash-safe publication (issue 13, items 1–2): demo-cli is SIGKILLed at every step of a
/// publication, restarted (which reconciles an interrupted attempt — on Fossil, whose login
/// lives in a run's memory, once the person signed in again), and — only when the restarted
/// tool knows no record — the person proposes again. Exactly one record must exist each time:
/// never zero after a ✓, never two. In memory, on Git and on Fossil.
@Suite("Crash-safe publication")
struct CrashInjectionTests {
  /// Where the publication is killed.
  enum Kill: Sendable, CustomTestStringConvertible {
    /// demo-cli kills itself at this step (`DEMO_CLI_TEST_CRASH`).
    case at(CrashInjection.Step)
    /// The remote's pre-receive hook kills demo-cli while the proposal is being pushed (the
    /// pack has arrived, no ref is written yet), then lets the push go on.
    case duringPush

    var testDescription: String {
      switch self {
      case .at(let step): step.rawValue
      case .duringPush: "during-push"
      }
    }

    /// Whether the restarted tool has an interrupted attempt to send again: its intent was
    /// journaled, and its record was not.
    var leavesAnIntent: Bool {
      switch self {
      case .at(.afterIntent), .at(.afterAnswer), .duringPush: true
      case .at: false
      }
    }

    /// Whether the restarted tool knows the attempt's record without the person proposing
    /// again: from the state file, from the journal, or by sending the intent again.
    var recordKnownAfterRestart: Bool {
      if case .at(.beforeIntent) = self { return false }
      return true
    }
  }

  @Test(
    "In memory with --state: killed at any step, exactly one record after the restart",
    arguments: CrashInjection.Step.allCases.map(Kill.at))
  func memory(_ kill: Kill) async throws {
    try await publish(killed: kill, onGit: false)
  }

  @Test(
    "On Git: killed at any step (the push included), exactly one record after the restart",
    .requires(.git), arguments: CrashInjection.Step.allCases.map(Kill.at) + [.duringPush])
  func git(_ kill: Kill) async throws {
    try await publish(killed: kill, onGit: true)
  }

  @Test(
    "On Fossil: killed at any step, exactly one proposal branch after the restart and a sign-in",
    .requires(.fossil), arguments: CrashInjection.Step.allCases.map(Kill.at))
  func fossil(_ kill: Kill) async throws {
    try await Turns.taking(.fossil) {
      let server = try await FossilDemoServer.start()
      do {
        try await publish(killed: kill, on: .fossil(server))
      } catch {
        await server.stop()
        throw error
      }
      await server.stop()
    }
  }

  /// Where the catalogue lives.
  enum Backend {
    case memory
    case git
    /// A server the test started: its login does not outlive a run, so every run signs in.
    case fossil(FossilDemoServer)
  }

  private func publish(killed kill: Kill, onGit: Bool) async throws {
    try await publish(killed: kill, on: onGit ? .git : .memory)
  }

  private func publish(killed kill: Kill, on backend: Backend) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("state.json").path
    let remote = directory.appendingPathComponent("catalogue.git").path
    var arguments = ["--state", state]
    var signIn = ""
    switch backend {
    case .memory: break
    case .git:
      try await runGit(["init", "--quiet", "--bare", remote])
      arguments += ["--backend", "git", "--remote", remote]
    case .fossil(let server):
      arguments += ["--backend", "fossil", "--remote", server.url]
      signIn = "signin ada lovelace\n"
    }
    arguments.append("repl")

    let setup = try await DemoCLIBinary.run(
      arguments, input: "signin ada lovelace\nadd e4 Talk\n",
      environment: ["TMPDIR": directory.path])
    try #require(setup.status == 0, "\(setup.outputText)\(setup.errorText)")

    // A SIGKILL leaves the run's private temporary folder behind: keep it in the test's folder.
    var environment = ["TMPDIR": directory.path]
    var pushHook: PushKillHook?
    switch kill {
    case .at(let step):
      environment[CrashInjection.variable] = CrashInjection.prefix + step.rawValue
    case .duringPush:
      pushHook = try await PushKillHook(remote: remote, directory: directory)
    }
    let killed = try await DemoCLIBinary.run(
      arguments, input: signIn + "propose Talk\n", environment: environment)
    #expect(killed.signal == SIGKILL, "not killed at \(kill.testDescription): \(killed.outputText)")
    let promised = killed.outputText.contains("✓ proposal")
    #expect(promised == (kill.testDescription == "after-print"), "\(killed.outputText)")
    if let pushHook {
      // The git push was started to die with demo-cli (the push itself may still land).
      #expect(try await pushHook.gitPushFate() == "gone", "the git push outlived demo-cli")
    }

    // Restart: an interrupted attempt is sent again with its key (on Fossil, once signed in).
    let restarted = try await DemoCLIBinary.run(
      arguments, input: signIn + "status\n", environment: ["TMPDIR": directory.path])
    #expect(restarted.status == 0, "\(restarted.outputText)\(restarted.errorText)")
    #expect(
      restarted.outputText.contains("interrupted publication: “Talk”") == kill.leavesAnIntent,
      "\(restarted.outputText)")
    var saved = try #require(try StateFileStorage(path: state).load())
    let journal = try PublicationJournal(
      storage: JournalFile(url: URL(fileURLWithPath: state + ".journal")))
    #expect(journal.entries.isEmpty, "the journal still holds \(journal.entries) after the restart")
    #expect(
      saved.proposals.count == (kill.recordKnownAfterRestart ? 1 : 0),
      "the restart knows \(saved.proposals): \(restarted.outputText)")
    if saved.proposals.isEmpty {
      // Nothing was sent and nothing is pending: the person proposes again.
      let again = try await DemoCLIBinary.run(
        arguments, input: signIn + "propose Talk\n", environment: ["TMPDIR": directory.path])
      #expect(again.status == 0, "\(again.outputText)")
      saved = try #require(try StateFileStorage(path: state).load())
    }
    #expect(saved.proposals.count == 1, "\(saved.proposals)")
    let records: Int
    switch backend {
    case .memory: records = try systemProposals(state)
    case .git: records = try await proposalRefs(remote)
    case .fossil(let server): records = try await server.proposals()
    }
    #expect(records == 1, "\(records) records after a SIGKILL at \(kill.testDescription)")
  }

  @Test(
    "An attempt interrupted under one person is shown to the next, never sent under their name",
    arguments: [CrashInjection.Step.afterIntent, .afterAnswer])
  func anInterruptedAttemptBelongsToItsAuthor(_ step: CrashInjection.Step) async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, environment) = try await adaProposing("AdasDraft", killedAt: step, in: directory)
    let recordsBefore = try systemProposals(state)
    // Ada's session ends meanwhile (as on a server whose sessions are not kept): the next run
    // starts signed out.
    try forgetSession(state)

    // Grace takes the machine: she is shown the attempt, and it is not sent for her.
    let grace = try await DemoCLIBinary.run(
      ["--state", state, "repl"], input: "signin grace hopper\nstatus\n",
      environment: environment)
    #expect(grace.status == 0, "\(grace.outputText)\(grace.errorText)")
    #expect(
      grace.outputText.contains("interrupted publication: “AdasDraft”"), "\(grace.outputText)")
    #expect(!grace.outputText.contains("✓ proposal"), "\(grace.outputText)")
    #expect(try systemProposals(state) == recordsBefore, "sent while grace was signed in")
    #expect(try proposalAuthors(state).allSatisfy { $0 == "ada" }, "a record under grace's name")

    // Ada comes back: her attempt is settled, exactly one record, hers.
    let ada = try await DemoCLIBinary.run(
      ["--state", state, "repl"], input: "signout\nsignin ada lovelace\nstatus\n",
      environment: environment)
    #expect(ada.status == 0, "\(ada.outputText)\(ada.errorText)")
    #expect(try proposalAuthors(state) == ["ada"], "\(ada.outputText)")
  }

  @Test("A resent attempt whose branch moved meanwhile is reported as it is, never with a ✓")
  func aResendNeverClaimsAHeadItDidNotCheck() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let (state, environment) = try await adaProposing(
      "Talk", killedAt: .afterAnswer, in: directory)
    #expect(try systemProposals(state) == 1, "the record was created before the kill")
    // Published moves on meanwhile (a reviewer merged something else).
    try moveBranch("published", in: state)

    let restarted = try await DemoCLIBinary.run(
      ["--state", state, "repl"], input: "status\n", environment: environment)
    #expect(restarted.status == 0, "\(restarted.outputText)\(restarted.errorText)")
    #expect(!restarted.outputText.contains("✓ proposal"), "\(restarted.outputText)")
    #expect(
      restarted.outputText.contains("exists, but published is at r2 now"),
      "\(restarted.outputText)")
    #expect(try systemProposals(state) == 1)
  }

  /// A state file (in `directory`) where Ada added the event `title` and the run proposing it
  /// was killed at `step`; and the environment its runs use.
  private func adaProposing(
    _ title: String, killedAt step: CrashInjection.Step, in directory: URL
  ) async throws -> (state: String, environment: [String: String]) {
    let state = directory.appendingPathComponent("state.json").path
    let environment = ["TMPDIR": directory.path]
    let setup = try await DemoCLIBinary.run(
      ["--state", state, "repl"], input: "signin ada lovelace\nadd e4 \(title)\n",
      environment: environment)
    try #require(setup.status == 0, "\(setup.outputText)\(setup.errorText)")
    var crashing = environment
    crashing[CrashInjection.variable] = CrashInjection.prefix + step.rawValue
    let killed = try await DemoCLIBinary.run(
      ["--state", state, "repl"], input: "propose \(title)\n", environment: crashing)
    #expect(killed.signal == SIGKILL, "\(killed.outputText)")
    return (state, environment)
  }

  /// Appends a revision to `branch` in a state file's system (its events unchanged).
  private func moveBranch(_ branch: String, in state: String) throws {
    let url = URL(fileURLWithPath: state)
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var system = try #require(json["system"] as? [String: Any])
    var branches = try #require(system["branches"] as? [String: [[String: Any]]])
    var revisions = try #require(branches[branch])
    var next = try #require(revisions.last)
    next["id"] = "r\(revisions.count + 1)"
    revisions.append(next)
    branches[branch] = revisions
    system["branches"] = branches
    json["system"] = system
    let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    try writePrivately(String(decoding: data, as: UTF8.self), to: state)
  }

  /// Removes the signed-in session (and its grant) from a state file, keeping it private.
  private func forgetSession(_ state: String) throws {
    let url = URL(fileURLWithPath: state)
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    json["session"] = nil
    json["persistedGrant"] = nil
    let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    try writePrivately(String(decoding: data, as: UTF8.self), to: state)
  }

  /// The authors of the proposals the in-memory system (saved in the state file) holds.
  private func proposalAuthors(_ state: String) throws -> [String] {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state)))
    let system = (json as? [String: Any])?["system"] as? [String: Any]
    let proposals = try #require(system?["proposals"] as? [[String: Any]])
    return proposals.compactMap { $0["author"] as? String }
  }

  /// The proposals the in-memory system (saved in the state file) holds.
  private func systemProposals(_ state: String) throws -> Int {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state)))
    let system = (json as? [String: Any])?["system"] as? [String: Any]
    return try #require(system?["proposals"] as? [Any]).count
  }

  /// The proposal refs the remote holds.
  private func proposalRefs(_ remote: String) async throws -> Int {
    try await runGit([
      "--git-dir", remote, "for-each-ref", "--format=%(refname)", "refs/proposals/",
    ])
    .split(separator: "\n").count
  }
}

/// A pre-receive hook that, on the first push creating a proposal, kills the demo-cli that
/// pushes it (found among its ancestors), waits for that demo-cli's `git push` to end, writes
/// whether it is gone, and lets the push go on.
struct PushKillHook {
  let fate: URL

  init(remote: String, directory: URL) async throws {
    let armed = directory.appendingPathComponent("hook-armed")
    fate = directory.appendingPathComponent("git-push-fate")
    try Data().write(to: armed)
    let hook = URL(fileURLWithPath: remote).appendingPathComponent("hooks/pre-receive")
    try await installExecutable(
      """
      #!/bin/sh
      grep -q ' refs/proposals/' || exit 0
      rm '\(armed.path)' 2>/dev/null || exit 0
      p=$PPID
      push=
      while [ "$p" -gt 1 ]; do
        case "$(cat /proc/$p/comm)" in
        demo-cli) kill -KILL "$p"; break ;;
        git) grep -q push /proc/$p/cmdline && push=$p ;;
        esac
        p=$(awk '{print $4}' /proc/$p/stat)
      done
      alive() { s=$(awk '{print $3}' /proc/$1/stat 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ]; }
      n=0
      while [ -n "$push" ] && alive "$push" && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
      if [ -z "$push" ]; then echo unknown; elif alive "$push"; then echo alive; else echo gone; fi >'\(fate.path)'
      exit 0
      """, at: hook)
  }

  /// `gone`, `alive` or `unknown`, once the hook wrote it (bounded wait).
  func gitPushFate() async throws -> String {
    try await waitUntil("the hook reports the git push's fate") {
      FileManager.default.fileExists(atPath: fate.path)
        && !((try? String(contentsOf: fate, encoding: .utf8)) ?? "").isEmpty
    }
    return try String(contentsOf: fate, encoding: .utf8).trimmingCharacters(in: .newlines)
  }
}

@MainActor
@Suite("Publication journal")
struct PublicationJournalTests {
  struct DiskFull: Error, CustomStringConvertible {
    var description: String { "No space left on device" }
  }

  /// A journal storage whose writes fail while `failing` is set.
  final class FailingStorage: JournalStorage {
    let failing = LockIsolated(false)
    private let kept = InMemoryJournalStorage()
    func read() throws -> Data? { try kept.read() }
    func write(_ data: Data) throws {
      if failing.current { throw DiskFull() }
      try kept.write(data)
    }
  }

  @Test("An attempt whose intent cannot be made durable is not sent; the form may retry it")
  func notDurableNotSent() async throws {
    let storage = FailingStorage()
    let executor = await makeExecutor(journal: try PublicationJournal(storage: storage))
    try await executor.run("signin ada lovelace", "add e4 Talk")
    storage.failing.setValue(true)
    let refused = try await executor.run("propose Talk")
    #expect(refused.failed)
    #expect(
      refused.text
        == "no proposal created: the attempt could not be recorded before sending it, so it was not sent (No space left on device)"
    )
    #expect(try await executor.host.memory.allProposals().isEmpty)
    #expect(executor.host.journal.entries.isEmpty)

    storage.failing.setValue(false)
    #expect(try await executor.run("retry").text.hasPrefix("proposal P1 · content c"))
    #expect(executor.host.journal.pending.isEmpty, "a published attempt is still pending")
  }

  @Test("A head that moved is a known outcome: nothing stays pending")
  func definiteRefusalSettles() async throws {
    let executor = await makeExecutor()
    try await executor.run(
      "signin ada lovelace", "add e4 Talk", "propose Talk", "merge P1", "fresh")
    try await executor.run("add e5 Other")
    let moved = try await executor.run("propose Other")
    #expect(moved.text == "no proposal created: published moved from r1 to r2; refresh first")
    #expect(executor.host.journal.pending.isEmpty)
    #expect(!(try await executor.run("status").text.contains("interrupted publication")))
  }
}
