import Foundation
import Testing

@testable import demo_cli

@Suite("Tool arguments")
struct InvocationTests {
  @Test("No arguments walk the story; repl and help are subcommands")
  func modes() throws {
    #expect(try Invocation.parse([]) == Invocation(mode: .walk))
    #expect(try Invocation.parse(["walk"]) == Invocation(mode: .walk))
    #expect(try Invocation.parse(["repl"]) == Invocation(mode: .repl))
    #expect(try Invocation.parse(["help"]).mode == .help)
    #expect(try Invocation.parse(["--help"]).mode == .help)
    #expect(try Invocation.parse(["repl", "-h"]).mode == .help)
  }

  @Test("--state takes a value, before or after the subcommand, in either spelling")
  func state() throws {
    #expect(
      try Invocation.parse(["--state", "s.json", "repl"])
        == Invocation(mode: .repl, statePath: "s.json"))
    #expect(
      try Invocation.parse(["repl", "--state=s.json"])
        == Invocation(mode: .repl, statePath: "s.json"))
    #expect(try Invocation.parse(["--no-color"]) == Invocation(mode: .walk, noColor: true))
  }

  @Test("--backend git takes --remote PATH or --remote new; --backend memory is the default")
  func backend() throws {
    #expect(try Invocation.parse(["--backend", "memory"]) == Invocation(mode: .walk))
    #expect(try Invocation.parse(["--backend", "memory"]).backend == .memory)
    #expect(
      try Invocation.parse(["--backend", "git", "--remote", "new"])
        == Invocation(mode: .walk, backend: .git(.new)))
    #expect(
      try Invocation.parse(["repl", "--remote=/srv/cat.git", "--backend=git"])
        == Invocation(mode: .repl, backend: .git(.existing("/srv/cat.git"))))
    #expect(throws: UsageError.gitWithoutRemote) { try Invocation.parse(["--backend", "git"]) }
    #expect(throws: UsageError.remoteWithoutBackend) { try Invocation.parse(["--remote", "new"]) }
    #expect(throws: UsageError.remoteWithoutBackend) {
      try Invocation.parse(["--backend=memory", "--remote", "new"])
    }
    #expect(throws: UsageError.missingValue("--remote")) {
      try Invocation.parse(["--backend", "git", "--remote"])
    }
    #expect(throws: UsageError.repeatedOption("--backend")) {
      try Invocation.parse(["--backend", "git", "--backend=git"])
    }
    #expect(
      throws: UsageError.invalidValue(
        option: "--backend", value: "svn", expected: "memory, git, http, fossil or sqlite")
    ) { try Invocation.parse(["--backend", "svn"]) }
  }

  @Test("--backend sqlite takes --remote PATH or --remote new")
  func sqlite() throws {
    #expect(
      try Invocation.parse(["--backend", "sqlite", "--remote", "new"])
        == Invocation(mode: .walk, backend: .sqlite(.new)))
    #expect(
      try Invocation.parse(["repl", "--backend=sqlite", "--remote=/srv/catalogue.sqlite"])
        == Invocation(mode: .repl, backend: .sqlite(.existing("/srv/catalogue.sqlite"))))
    #expect(throws: UsageError.sqliteWithoutRemote) {
      try Invocation.parse(["--backend", "sqlite"])
    }
  }

  @Test("--backend http takes --remote URL or --remote new; serve takes --port")
  func http() throws {
    #expect(
      try Invocation.parse(["--backend", "http", "--remote", "new"])
        == Invocation(mode: .walk, backend: .http(.new)))
    let url = try #require(URL(string: "http://127.0.0.1:8080"))
    #expect(
      try Invocation.parse(["repl", "--backend=http", "--remote=http://127.0.0.1:8080/"])
        == Invocation(mode: .repl, backend: .http(.existing(url))), "one spelling per server")
    #expect(throws: UsageError.httpWithoutRemote) { try Invocation.parse(["--backend", "http"]) }
    for bad in ["ftp://host", "/srv/cat.git", "http://127.0.0.1:8080/?token=x", "http://u:p@host"] {
      #expect(
        throws: UsageError.invalidValue(
          option: "--remote", value: bad,
          expected: "new or the server's URL (http://127.0.0.1:PORT)")
      ) { try Invocation.parse(["--backend", "http", "--remote", bad]) }
    }
    #expect(try Invocation.parse(["serve"]) == Invocation(mode: .serve(port: 0, database: nil)))
    #expect(
      try Invocation.parse(["serve", "--port", "8080"])
        == Invocation(mode: .serve(port: 8080, database: nil)))
    #expect(
      try Invocation.parse(["--port=0", "serve"])
        == Invocation(mode: .serve(port: 0, database: nil)))
    #expect(throws: UsageError.portWithoutServe) { try Invocation.parse(["repl", "--port", "1"]) }
    #expect(
      try Invocation.parse(["serve", "--database", "demo.sqlite"])
        == Invocation(mode: .serve(port: 0, database: "demo.sqlite")))
    #expect(
      try Invocation.parse(["--database=d.sqlite", "serve", "--port=9"])
        == Invocation(mode: .serve(port: 9, database: "d.sqlite")))
    #expect(throws: UsageError.databaseWithoutServe) {
      try Invocation.parse(["--database", "d.sqlite"])
    }
    #expect(throws: UsageError.missingValue("--database")) {
      try Invocation.parse(["serve", "--database"])
    }
    #expect(throws: UsageError.notWithServe("--state")) {
      try Invocation.parse(["serve", "--state", "s"])
    }
    #expect(throws: UsageError.notWithServe("--backend")) {
      try Invocation.parse(["serve", "--backend", "http"])
    }
    #expect(
      throws: UsageError.invalidValue(
        option: "--port", value: "70000", expected: "a port number (0 to 65535)")
    ) { try Invocation.parse(["serve", "--port", "70000"]) }
    #expect(throws: UsageError.repeatedOption("--port")) {
      try Invocation.parse(["serve", "--port", "1", "--port=2"])
    }
  }

  @Test("--backend fossil takes --remote URL or --remote new")
  func fossil() throws {
    #expect(
      try Invocation.parse(["--backend", "fossil", "--remote", "new"])
        == Invocation(mode: .walk, backend: .fossil(.new)))
    #expect(
      try Invocation.parse(["repl", "--backend=fossil", "--remote=http://127.0.0.1:8080"])
        == Invocation(mode: .repl, backend: .fossil(.existing("http://127.0.0.1:8080"))))
    #expect(throws: UsageError.fossilWithoutRemote) {
      try Invocation.parse(["--backend", "fossil"])
    }
    #expect(throws: UsageError.notWithServe("--backend")) {
      try Invocation.parse(["serve", "--backend", "fossil", "--remote", "new"])
    }
  }

  @Test("Bad arguments are usage errors")
  func errors() {
    #expect(throws: UsageError.unknownOption("--bogus")) { try Invocation.parse(["--bogus"]) }
    #expect(throws: UsageError.unknownSubcommand("frobnicate")) {
      try Invocation.parse(["frobnicate"])
    }
    #expect(throws: UsageError.missingValue("--state")) { try Invocation.parse(["--state"]) }
    #expect(throws: UsageError.missingValue("--state")) {
      try Invocation.parse(["--state", "--no-color"])
    }
    #expect(throws: UsageError.repeatedOption("--state")) {
      try Invocation.parse(["--state=a", "--state=b"])
    }
    #expect(throws: UsageError.unexpectedArgument("walk")) {
      try Invocation.parse(["repl", "walk"])
    }
  }

  @MainActor
  @Test("An unknown flag or subcommand exits 2 with a usage line on standard error")
  func usageExit() async {
    for arguments in [["--bogus"], ["frobnicate"], ["repl", "--colour"]] {
      let run = await runCLI(arguments)
      #expect(run.status == 2)
      #expect(run.output.isEmpty)
      #expect(run.errors.contains("usage: demo-cli"))
      #expect(run.errors.hasPrefix("demo-cli: unknown"))
    }
  }

  @MainActor
  @Test("--help documents the subcommands, the options and every repl command")
  func help() async {
    let run = await runCLI(["--help"])
    #expect(run.status == 0)
    let words = [
      "walk", "repl", "serve", "--port", "--backend memory", "--backend git", "--backend http",
      "--backend fossil", "--state", "--no-color", "Exit status",
    ]
    for word in words {
      #expect(run.output.contains(word))
    }
    for spec in CommandTable.all {
      #expect(run.output.contains(spec.usage), "\(spec.name) is not documented")
    }
  }

  @Test("Colour only on a terminal without NO_COLOR")
  func color() {
    #expect(Style.detect(environment: [:], outputIsTerminal: true).usesColor)
    #expect(!Style.detect(environment: [:], outputIsTerminal: false).usesColor)
    #expect(!Style.detect(environment: ["NO_COLOR": "1"], outputIsTerminal: true).usesColor)
    #expect(Style.plain.green("ok") == "ok")
    #expect(Style.color.green("ok") == "\u{1B}[32mok\u{1B}[0m")
  }
}
