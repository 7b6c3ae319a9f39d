import Foundation
import GitWorkspace
import ProcessSupport
import ProcessTestSupport
import Testing

@Suite("Git process", .requires(.git))
struct GitProcessTests {
  @Test func aFailingCommandIsAGitErrorWithGitsMessage() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let error = await #expect(throws: GitError.self) {
      try await GitProcess().run(["rev-parse", "HEAD"], in: directory.url)
    }
    #expect(error?.status == 128)
    #expect(error?.arguments == ["rev-parse", "HEAD"])
    #expect(error?.message.contains("not a git repository") == true)
    #expect(error?.localizedDescription.hasPrefix("git rev-parse failed (exit 128): ") == true)
  }

  @Test func identityComesFromTheRunnerNotFromGlobalConfig() async throws {
    let git = GitProcess().withIdentity(
      GitSignature(name: "Ada Lovelace", email: "ada@example.com"))
    let ident = try await git.text(["var", "GIT_COMMITTER_IDENT"])
    #expect(ident.hasPrefix("Ada Lovelace <ada@example.com> "))
    // Global config is /dev/null: nothing is configured there.
    let global = try await git.run(
      ["config", "--global", "--list"], acceptedStatuses: [0, 1, 128])
    #expect(global.outputText.isEmpty)
  }

  @Test func aGitKilledByASignalIsReportedAsKilledNotAsAnExitStatus() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let git = try await fakeGit(in: directory, script: "echo started >&2; kill -KILL $$")
    let error = await #expect(throws: GitError.self) { try await git.run(["push", "origin"]) }
    #expect(error?.signal == 9)
    #expect(error?.description == "git push was killed by signal 9 (SIGKILL): started")
  }

  @Test func anSSHErrorEndingInCRLFIsOneMessageWithoutCarriageReturns() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let git = try await fakeGit(
      in: directory,
      script:
        #"printf 'ssh: connect to host example.invalid port 22: Connection refused\r\n' >&2; "#
        + #"printf 'fatal: Could not read from remote repository.\r\n' >&2; exit 128"#)
    let error = await #expect(throws: GitError.self) { try await git.run(["fetch", "origin"]) }
    #expect(
      error?.message
        == "ssh: connect to host example.invalid port 22: Connection refused\n"
        + "fatal: Could not read from remote repository.")
    #expect(error?.isTransportFailure == true)
  }

  @Test func aPushErrorNamesTheSubcommandNotItsWholeCommandLine() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let git = try await fakeGit(in: directory, script: "echo 'fatal: refused' >&2; exit 128")
    let arguments = [
      "push", "--porcelain", "--atomic", "origin", "--force-with-lease=refs/proposals/k:",
      "0123456789abcdef0123456789abcdef01234567:refs/proposals/k",
    ]
    let error = await #expect(throws: GitError.self) { try await git.run(arguments) }
    #expect(error?.description == "git push failed (exit 128): fatal: refused")
    #expect(error?.command == "git " + arguments.joined(separator: " "))
  }

  @Test func childrenAreStartedToDieWithTheirParent() async throws {
    let wrapper = try #require(ProcessRunnerTestSupport.setpriv, "setpriv is part of util-linux")
    let dump = try await ProcessRunner().run(URL(fileURLWithPath: wrapper), arguments: ["--dump"])
    #expect(dump.outputText.contains("Parent death signal: TERM"), "\(dump.outputText)")
  }

  @Test func aMissingGitExecutableIsAGitError() async throws {
    let git = GitProcess(executable: URL(fileURLWithPath: "/nonexistent/git"))
    let error = await #expect(throws: GitError.self) { try await git.run(["--version"]) }
    #expect(error?.status == -1)
  }
}

enum ProcessRunnerTestSupport {
  static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

/// A stand-in for git: a shell script that ignores its arguments and runs `script`.
func fakeGit(in directory: TemporaryDirectory, script: String) async throws -> GitProcess {
  let file = directory.url.appendingPathComponent("fake-git")
  try await installExecutable("#!/bin/sh\n\(script)\n", at: file)
  return GitProcess(executable: file)
}
