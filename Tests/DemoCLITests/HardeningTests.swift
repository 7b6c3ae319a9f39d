import Foundation
import ProcessTestSupport
import Testing

@testable import demo_cli

/// demo-cli under hostile conditions (issue 13, items 4–11): every case here trapped, leaked or
/// lost something before.
@MainActor
@Suite("Hardening")
struct HardeningTests {
  // MARK: 4. Write errors

  @Test("Standard output on a full disk or closed: one line on stderr, exit 1, no trap")
  func unwritableOutput() async throws {
    let full = try await DemoCLIBinary.shell(
      #"exec "$0" repl >/dev/full"#, input: "status\nstatus\n")
    #expect(full.signal == nil, "demo-cli was killed by signal \(full.signal ?? 0)")
    #expect(full.status == 1)
    #expect(
      full.errorText == "demo-cli: cannot write to standard output: No space left on device\n")

    let closed = try await DemoCLIBinary.shell(#"exec "$0" repl >&-"#, input: "status\n")
    #expect(closed.signal == nil, "demo-cli was killed by signal \(closed.signal ?? 0)")
    #expect(closed.status == 1)
    #expect(closed.errorText == "demo-cli: cannot write to standard output: Bad file descriptor\n")
  }

  @Test("A reader that went away, SIGPIPE ignored: exit 1, quietly")
  func brokenPipe() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // The reader closes its end first; only then are commands fed, so every write fails. The
    // commands go in one write: demo-cli exits after its first failed write, and a second
    // write of the feeder's own would then fail too (its error, not demo-cli's, on stderr).
    let script = #"""
      trap '' PIPE
      {
        n=0
        while [ ! -e "$1/closed" ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
        printf 'status\nstatus\n'
      } | { "$0" repl; echo "exit=$?" >&2; } | { exec 0<&-; touch "$1/closed"; }
      """#
    let run = try await DemoCLIBinary.shell(script, [directory.path])
    #expect(run.errorText == "exit=1\n", "\(run.errorText)")
  }

  // MARK: 5. Numbers in the state file

  @Test("A state file with a number out of range is refused in one line and left untouched")
  func hostileNumbers() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"]).status == 0)
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    #expect(saved.contains(#""lastTokenNumber" : 1"#))
    for value in ["9223372036854775807", "-1", "1.5", "1000000001"] {
      let hostile = saved.replacingOccurrences(
        of: #""lastTokenNumber" : 1"#, with: #""lastTokenNumber" : \#(value)"#)
      try writePrivately(hostile, to: path)
      let run = try await DemoCLIBinary.run(
        ["--state", path, "repl"], input: "signin ada lovelace\n")
      #expect(run.signal == nil, "demo-cli was killed by signal \(run.signal ?? 0) for \(value)")
      #expect(run.status == 1)
      #expect(run.outputText.isEmpty)
      #expect(
        run.errorText
          == "demo-cli: cannot use the state file \(path): it is not a usable demo-cli state file: "
          + "\(value) at system.lastTokenNumber is out of range (a whole number from 0 to 1000000000)\n"
      )
      #expect(try String(contentsOfFile: path, encoding: .utf8) == hostile, "the file was changed")
    }
  }

  @Test("A state file whose numbers are in range but contradict each other is refused")
  func contradictoryNumbers() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"]).status == 0)
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    // A token counter behind a live session would hand its token out again.
    let behind = saved.replacingOccurrences(
      of: #""lastTokenNumber" : 1"#, with: #""lastTokenNumber" : 0"#)
    try writePrivately(behind, to: path)
    let run = try await DemoCLIBinary.run(
      ["--state", path, "repl"], input: "signin ada lovelace\n")
    #expect(run.status == 1)
    #expect(
      run.errorText.hasSuffix(
        "session session-1 is not one the token counter (0) handed out\n"), "\(run.errorText)")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == behind, "the file was changed")
  }

  @Test("Counters at their limit: sign-in is refused with a reason, and the file still reads back")
  func countersAtTheirLimit() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(await runCLI(["--state", path, "repl"], input: ["status"]).status == 0)
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    let full = saved.replacingOccurrences(
      of: #""lastTokenNumber" : 0"#, with: #""lastTokenNumber" : 999999999"#)
    #expect(full != saved)
    try writePrivately(full, to: path)
    for _ in 0..<3 {
      let run = await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"])
      #expect(!run.errors.contains("not a usable"), "the tool refused its own file: \(run.errors)")
      #expect(
        run.output.contains("✓ signed in as ada") || run.output.contains("last session number"))
    }
    let last = await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"])
    #expect(last.output.contains("the system has handed out its last session number"))
  }

  // MARK: 6. Passwords in echoed lines

  @Test("No form of a bad signin line echoes the password")
  func passwordsNeverEchoed() async {
    let lines = [
      #""signin" ada lovelace extra"#, "sigin ada lovelace", #"signin ada "love lace"#,
      #""signin ada lovelace"#, "signin:ada:lovelace", "'signin ada lovelace'",
    ]
    let run = await runCLI(["repl"], input: lines)
    #expect(run.status == 1)
    #expect(!run.output.contains("lovelace"), "\(run.output)")
    #expect(!run.output.contains("love lace"), "\(run.output)")
    #expect(run.output.contains("› signin ********\n"))
    #expect(run.output.contains("› sigin ********\n✗ unknown command 'sigin'"))
    #expect(
      run.output.contains(
        "› ********\n✗ unknown command (not repeated here: it may hold a password)"))
  }

  @Test("A password typed on a line of its own, or as the user name, is never repeated")
  func misplacedPasswordsNeverRepeated() async {
    let run = await runCLI(["repl"], input: ["signin ada", "lovelace", "signin lovelace ada"])
    #expect(!run.output.contains("lovelace"), "\(run.output)")
    #expect(run.output.contains("› ********\n✗ unknown command (not repeated here"))
    #expect(run.output.contains("there is no such account"), "\(run.output)")
    let shown = await runCLI(["repl"], input: ["signin lovelace ada", "status"])
    #expect(!shown.output.contains("lovelace"), "nor in a later notice: \(shown.output)")
  }

  // MARK: 7. The session token

  @Test("signin, status and the restore banner show a fingerprint, never the session token")
  func noSessionToken() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    let first = await runCLI(["--state", path, "repl"], input: ["signin ada lovelace", "status"])
    let second = await runCLI(["--state", path, "repl"], input: ["status"])
    let fingerprint = Describe.fingerprint("session-1")
    #expect(first.output.contains("✓ signed in as ada (session \(fingerprint))"))
    #expect(first.output.contains("  session: ada (session \(fingerprint))"))
    #expect(
      second.output.contains("restored from \(path)\n  session: ada (session \(fingerprint))"))
    for output in [first.output, second.output] {
      #expect(!output.contains("session-1"), "\(output)")
    }
    #expect(fingerprint.count == 8 && fingerprint.allSatisfy(\.isHexDigit))
    #expect(Describe.fingerprint("session-2") != fingerprint)
  }

  // MARK: 8. One process per state file

  @Test("A second process on the same state file is refused in one line; the file is untouched")
  func exclusiveLock() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    // Another demo-cli holds the file for its session.
    let other = try await DemoCLIBinary.start(["--state", path, "repl"])
    other.send("status")
    try await waitUntil("the other demo-cli holds the lock") {
      (try? String(contentsOfFile: path + ".lock", encoding: .utf8)) == "\(other.pid)\n"
    }
    let refused = await runCLI(["--state", path, "repl"], input: ["add e4 Lost", "quit"])
    #expect(refused.status == 1)
    #expect(refused.output.isEmpty)
    #expect(
      refused.errors
        == "demo-cli: cannot use the state file \(path): another demo-cli (process \(other.pid)) is using it; it was left as it is\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let ended = try await other.finish()
    #expect(ended.status == 0, "\(ended.errorText)")

    // Its session over, the file is free again.
    #expect(await runCLI(["--state", path, "repl"], input: ["add e4 Kept"]).status == 0)
  }

  // MARK: 9. Ownership, permissions, the restored baseline, temporary folders

  @Test("A state file others may read, or a symbolic link, is refused and left as it is")
  func filePolicy() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(await runCLI(["--state", path, "repl"], input: ["signin ada lovelace"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    let open = await runCLI(["--state", path, "repl"], input: ["add e4 Talk"])
    #expect(open.status == 1)
    #expect(
      open.errors
        == "demo-cli: cannot use the state file \(path): others may read or write it (mode 644) and it holds a session; chmod 600 it to use it; it was left as it is\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    let link = directory.appendingPathComponent("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let linked = await runCLI(["--state", link, "repl"], input: ["add e4 Talk"])
    #expect(linked.status == 1)
    #expect(
      linked.errors
        == "demo-cli: cannot use the state file \(link): it is a symbolic link; give the path of the file itself; it was left as it is\n"
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("The policy: only a regular file of this user's, that nobody else may read or write")
  func policy() {
    #expect(
      StateFilePolicy.problem(type: S_IFREG, permissions: 0o600, owner: 1000, user: 1000) == nil)
    #expect(
      StateFilePolicy.problem(type: S_IFREG, permissions: 0o400, owner: 1000, user: 1000) == nil)
    #expect(
      StateFilePolicy.problem(type: S_IFREG, permissions: 0o600, owner: 0, user: 1000)
        == "it belongs to another user (uid 0), not to you (uid 1000)")
    #expect(StateFilePolicy.problem(type: S_IFREG, permissions: 0o640, owner: 7, user: 7) != nil)
    #expect(StateFilePolicy.problem(type: S_IFREG, permissions: 0o602, owner: 7, user: 7) != nil)
    #expect(StateFilePolicy.problem(type: S_IFDIR, permissions: 0o700, owner: 7, user: 7) != nil)
  }

  @Test("A restored workspace whose baseline does not exist is refused, the file untouched")
  func missingBaseline() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    #expect(
      await runCLI(["--state", path, "repl"], input: ["signin ada lovelace", "add e4 Talk"]).status
        == 0)
    let saved = try String(contentsOfFile: path, encoding: .utf8)
    let pattern = #/"revision" : "r1"/#
    #expect(saved.contains(pattern))
    let edited = saved.replacing(pattern, with: #""revision" : "r9""#)
    try writePrivately(edited, to: path)
    for arguments in [["--state", path, "repl"], ["--state", path]] {
      let run = await runCLI(arguments, input: ["add e5 More"])
      #expect(run.status == 1)
      #expect(run.output.isEmpty)
      #expect(
        run.errors
          == "demo-cli: cannot use the state file \(path): its workspace's baseline published@r9 does not exist in the saved system; it was left as it is\n"
      )
      #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
    }
  }

  @Test(
    "Temporary folders are private and removed when SIGTERM or SIGINT ends the run",
    .requires(.git))
  func temporaryFolders() async throws {
    for signal in [SIGTERM, SIGINT] {
      let directory = try temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let running = try await DemoCLIBinary.start(
        ["--backend", "git", "--remote", "new", "repl"], environment: ["TMPDIR": directory.path])
      running.send("signin ada lovelace")
      var run: URL?
      try await waitUntil("the run's working copies exist") {
        run = try? FileManager.default.contentsOfDirectory(
          at: directory, includingPropertiesForKeys: nil
        ).first { $0.lastPathComponent.hasPrefix("demo-cli-run-") }
        return run.map {
          FileManager.default.fileExists(atPath: $0.appendingPathComponent("workspaces").path)
        } ?? false
      }
      let remote = try #require(
        try FileManager.default.contentsOfDirectory(atPath: directory.path).first {
          $0.hasPrefix("demo-cli-remote-")
        })
      #expect(try permissions(of: try #require(run)) == 0o700)
      #expect(try permissions(of: directory.appendingPathComponent(remote)) == 0o700)

      kill(running.pid, signal)
      let ended = try await running.finish()
      #expect(
        ended.signal == signal, "demo-cli did not end by signal \(signal): \(ended.errorText)")
      // The run's folder (working copies, seed clone) is gone — what its handler could not
      // remove while the process's tasks still wrote is swept just after it ended; the remote
      // stays, as documented.
      try? await waitUntil("the run's folder to be swept") {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) == [remote]
      }
      let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      let inside = FileManager.default.subpaths(atPath: directory.path) ?? []
      #expect(left == [remote], "\(inside.filter { !$0.hasPrefix(remote) }) \(ended.errorText)")
    }
  }

  @Test(
    "A run folder a killed run left is removed by the next run; a live run's is not",
    .requires(.git))
  func abandonedRunFoldersAreSwept() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ended = try await DemoCLIBinary.shell(#"echo $$"#)
    let deadPID = ended.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    let abandoned = directory.appendingPathComponent("demo-cli-run-\(deadPID)-AbCdEf")
    let live = directory.appendingPathComponent("demo-cli-run-\(getpid())-GhIjKl")
    for folder in [abandoned, live] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("workspaces"), withIntermediateDirectories: true)
    }
    let run = try await DemoCLIBinary.run(
      ["--backend", "git", "--remote", "new", "repl"], input: "signin ada lovelace\n",
      environment: ["TMPDIR": directory.path])
    #expect(run.status == 0, "\(run.outputText)\(run.errorText)")
    #expect(
      !FileManager.default.fileExists(atPath: abandoned.path), "the killed run's folder stayed")
    #expect(FileManager.default.fileExists(atPath: live.path), "a live run's folder was removed")
  }

  @Test(
    "A publication whose outcome is not known says so, never 'no proposal created'",
    .requires(.git))
  func unknownOutcomeIsNotCalledAFailure() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("state.json").path
    let made = try await DemoCLIBinary.run(
      ["--state", state, "--backend", "git", "--remote", "new", "repl"], input: "status\n",
      environment: ["TMPDIR": directory.path])
    let remote = try #require(
      made.outputText.firstMatch(of: #/remote: (\S+) \(new bare repository/#).map { String($0.1) },
      "\(made.outputText)")
    // The push fails after it reached the remote: the client cannot tell the outcome.
    let hook = URL(fileURLWithPath: remote).appendingPathComponent("hooks/pre-receive")
    try Data("#!/bin/sh\nexit 1\n".utf8).write(to: hook)
    #expect(chmod(hook.path, 0o700) == 0)
    let run = try await DemoCLIBinary.run(
      ["--state", state, "--backend", "git", "--remote", remote, "repl"],
      input: "signin ada lovelace\nadd e4 Talk\npropose Talk\n",
      environment: ["TMPDIR": directory.path])
    #expect(run.outputText.contains("✗ outcome unknown: "), "\(run.outputText)")
    #expect(!run.outputText.contains("no proposal created"), "\(run.outputText)")
    #expect(run.outputText.contains("at most one record"), "\(run.outputText)")
  }

  @Test("FILE.workspaces is made private (0700)", .requires(.git))
  func workspacesFolder() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state.json").path
    let run = await runCLI(
      ["--state", path, "--backend", "git", "--remote", "new", "repl"],
      input: ["signin ada lovelace"])
    #expect(run.status == 0, "\(run.output)")
    let remote = try #require(run.output.firstMatch(of: #/remote: (\S+) \(new bare repository/#)?.1)
    defer {
      try? FileManager.default.removeItem(
        at: URL(fileURLWithPath: String(remote)).deletingLastPathComponent())
    }
    #expect(try permissions(of: URL(fileURLWithPath: path + ".workspaces")) == 0o700)
  }

  // MARK: 11. Small

  @Test("An empty NO_COLOR leaves colour on (no-color.org); a non-empty one turns it off")
  func noColor() {
    #expect(Style.detect(environment: ["NO_COLOR": ""], outputIsTerminal: true).usesColor)
    #expect(!Style.detect(environment: ["NO_COLOR": "1"], outputIsTerminal: true).usesColor)
    #expect(Style.detect(environment: [:], outputIsTerminal: true).usesColor)
    #expect(!Style.detect(environment: [:], outputIsTerminal: false).usesColor)
  }

  @Test("An error with CRLF line ends (an ssh client's) prints on one line")
  func crlfOnOneLine() {
    let outcome = CommandOutcome.failure(
      "git fetch failed (exit 128): ssh: connect to host example.invalid port 22: Connection refused\r\n"
        + "fatal: Could not read from remote repository.\r\n")
    let lines = OutcomePrinter(style: .plain).lines(outcome)
    #expect(
      lines == [
        "✗ git fetch failed (exit 128): ssh: connect to host example.invalid port 22: Connection refused"
          + " · fatal: Could not read from remote repository."
      ])
    #expect(Describe.oneLine("a\u{1B}[2Jb\tc\rd") == "a[2Jb c · d")
  }
}

/// The permission bits of `url`.
func permissions(of url: URL) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
  return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// Waits (bounded: 30 s) until `condition` holds; fails the test otherwise.
@MainActor
func waitUntil(
  _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () throws -> Bool
) async throws {
  for _ in 0..<600 {
    if try condition() { return }
    try await Task.sleep(for: .milliseconds(50))
  }
  Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
  throw CancellationError()
}
