/// The tool: parses the arguments, opens the state file, and runs the walk or the repl.
@MainActor
enum CLI {
  /// Runs the tool; returns its exit status.
  ///
  /// - Parameters:
  ///   - arguments: the arguments after the program name.
  ///   - terminal: whether the streams are terminals, and the environment.
  ///   - sink: where output goes.
  ///   - readLine: the repl's input, one line per call, `nil` at the end.
  static func run(
    arguments: [String],
    terminal: Terminal,
    sink: any OutputSink,
    readLine: () -> String?
  ) async -> Int32 {
    let invocation: Invocation
    do {
      invocation = try Invocation.parse(arguments)
    } catch {
      sink.errorLine("demo-cli: \(error)")
      sink.errorLine(ToolHelp.usage + "  (demo-cli --help for more)")
      return 2
    }
    let style = invocation.noColor ? Style.plain : terminal.style
    if invocation.mode == .help {
      sink.write(ToolHelp.text)
      return 0
    }

    let storage = invocation.statePath.map(StateFileStorage.init(path:))
    let saved: StateFile?
    do {
      saved = try storage?.load()
    } catch {
      sink.errorLine("demo-cli: cannot use the state file \(invocation.statePath ?? ""): \(error)")
      return 1
    }
    let host = saved.map(DemoHost.init(restoring:)) ?? DemoHost()
    let executor = CommandExecutor(host: host)

    switch invocation.mode {
    case .walk, .help:
      let narrator = Narrator(sink: sink, style: style)
      var succeeded = await Walk(executor: executor, narrator: narrator)
        .run(restoredFrom: saved == nil ? nil : invocation.statePath)
      if let storage {
        do {
          try storage.save(await host.snapshot())
          sink.line("")
          sink.line("state saved to \(storage.path)")
        } catch {
          sink.errorLine("demo-cli: the state was not saved to \(storage.path): \(error)")
          succeeded = false
        }
      }
      return succeeded ? 0 : 1

    case .repl:
      await host.start()
      if terminal.inputIsTerminal {
        sink.line(style.bold("demo-cli repl") + " — the demo on an in-memory system; 'help' lists the commands")
      }
      if saved != nil, let path = invocation.statePath {
        let printer = OutcomePrinter(style: style)
        var outcome = CommandOutcome.info("restored from \(path)")
        outcome.info("session: " + (host.state.session.map { "\($0.username) (\($0.token))" } ?? "signed out"))
        outcome.info(executor.admissionLine)
        outcome.info(executor.workspaceLine)
        printer.print(outcome, to: sink)
      }
      return await Repl(
        executor: executor, sink: sink, style: style, interactive: terminal.inputIsTerminal,
        storage: storage
      ).run(readLine: readLine)
    }
  }
}
