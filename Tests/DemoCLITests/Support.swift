import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing
import WorkspaceDemoFeature
import WorkspaceJournal

@testable import demo_cli

/// What one run of the tool produced.
struct Run {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs the tool as `demo-cli ARGUMENTS` with `input` as its standard input, colour off.
@MainActor
func runCLI(_ arguments: [String], input: [String] = [], interactive: Bool = false) async -> Run {
  let sink = CapturedOutput()
  var lines = input[...]
  let status = await CLI.run(
    arguments: arguments,
    terminal: Terminal(inputIsTerminal: interactive, outputIsTerminal: false, environment: [:]),
    sink: sink,
    readLine: { lines.popFirst() }
  )
  return Run(status: status, output: sink.output, errors: sink.errors)
}

/// A fresh executor over a fresh in-memory system.
@MainActor
func makeExecutor(journal: PublicationJournal = PublicationJournal()) async -> CommandExecutor {
  let host = DemoHost(journal: journal)
  await host.start()
  return CommandExecutor(host: host)
}

extension CommandExecutor {
  /// Parses and runs each line; returns the outcome of the last.
  @discardableResult
  func run(_ lines: String...) async throws -> CommandOutcome {
    var last = CommandOutcome()
    for line in lines {
      let command = try #require(try CommandParser.parse(line))
      last = await execute(command)
    }
    return last
  }
}

/// A new empty directory for one test.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("demo-cli-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `contents` to `path` as the tool would: owner-only (mode 0600).
func writePrivately(_ contents: String, to path: String) throws {
  try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
  try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
}

/// Requires each of `patterns` to match in `text` after the match of the one before it (as
/// literal text, or as regular expressions when `asRegexes`); fails on the first that is
/// missing or out of order, showing the text.
func expectInOrder(_ patterns: [String], in text: String, asRegexes: Bool = false) throws {
  var rest = text[...]
  for pattern in patterns {
    let regex = asRegexes ? try Regex(pattern) : Regex(Regex<Substring>(verbatim: pattern))
    let match = try #require(
      rest.firstMatch(of: regex), "missing, or out of order: \(pattern)\n\(text)")
    rest = rest[match.range.upperBound...]
  }
}

extension DemoHost {
  /// The in-memory system the host's backend keeps (every in-process test host has one).
  var memory: DemoSystem {
    get throws { try #require(system, "the host's backend keeps no in-memory system") }
  }
}
