import Foundation

/// The interactive shell: reads commands line by line (from a terminal or a pipe), runs each
/// against the store, prints its result, and saves the state file after every command.
///
/// On a terminal it prints a prompt; otherwise it echoes each command (passwords masked) so a
/// piped session reads as a transcript. A failing command never stops the shell; in
/// non-interactive use the shell exits with status 1 at the end of its input if any failed.
@MainActor
struct Repl {
  let executor: CommandExecutor
  let sink: any OutputSink
  let style: Style
  /// Whether input comes from a person at a terminal.
  let interactive: Bool
  /// Where to save after every command, if anywhere.
  let storage: StateFileStorage?

  /// Runs until `quit` or the end of input; returns the exit status.
  func run(readLine: () -> String?) async -> Int32 {
    let printer = OutcomePrinter(style: style)
    var failures = 0
    while !sink.isBroken {
      if interactive { sink.write(style.bold("demo> ")) }
      guard let line = readLine() else {
        if interactive { sink.line() }
        break
      }
      let command: Command
      do {
        guard let parsed = try CommandParser.parse(line) else { continue }
        command = parsed
      } catch {
        echo(Self.masked(line))
        printer.print(.failure(error.description), to: sink)
        failures += 1
        continue
      }
      echo(command.maskedText ?? line.trimmingWhitespace)
      var outcome = await executor.execute(command)
      if command.changesState {
        if let storage {
          if command.publishes { CrashInjection.at(.beforeSave) }
          await storage.save(executor.host, reportingIn: &outcome)
          if command.publishes { CrashInjection.at(.afterSave) }
        } else {
          try? await executor.host.settleJournal()
        }
      }
      printer.print(outcome, to: sink)
      if command.publishes { CrashInjection.at(.afterPrint) }
      if outcome.failed { failures += 1 }
      if outcome.quits { break }
    }
    return interactive || failures == 0 ? 0 : 1
  }

  private func echo(_ text: String) {
    guard !interactive else { return }
    sink.line(style.dim("› " + text))
  }

  /// A line that did not parse, safe to echo: nothing after its first word is shown (it may
  /// be a password: `"signin" ada lovelace extra`, `sigin ada lovelace`, an unclosed quote),
  /// and the first word only when it could be a command's name.
  static func masked(_ line: String) -> String {
    let words = line.split(whereSeparator: \.isWhitespace)
    guard let first = words.first?.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    else { return "" }
    let shown = CommandError.couldBeCommandName(first) ? first : "********"
    return words.count > 1 ? shown + " ********" : shown
  }
}

extension Command {
  /// Whether the command publishes a proposal (a publication's crash points are around it).
  var publishes: Bool {
    switch self {
    case .propose, .retry: true
    default: false
    }
  }

  /// Whether the command may change what `--state` keeps (help and quit do not).
  var changesState: Bool {
    switch self {
    case .help, .quit: false
    default: true
    }
  }
}

extension StateFileStorage {
  /// Saves the host's state now, then lets the journal forget the records it holds (a journal
  /// that cannot be updated keeps them: the next start finds them in the file already); a
  /// failed save becomes a failure line of `outcome`.
  @MainActor
  func save(_ host: DemoHost, reportingIn outcome: inout CommandOutcome) async {
    do {
      try save(await host.snapshot())
    } catch {
      outcome.fail("state not saved to \(path): \(error)")
      return
    }
    try? await host.settleJournal()
  }

  /// Where the publication journal of this state file is kept: `FILE.journal`, beside it.
  var journalURL: URL { URL(fileURLWithPath: path + ".journal") }
}
