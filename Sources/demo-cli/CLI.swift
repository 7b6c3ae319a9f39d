import DemoBackendInterface
import Foundation
import WorkspaceJournal

/// The tool: parses the arguments, claims and opens the state file, opens the backend, and
/// runs the walk or the repl.
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
      return sink.isBroken ? 1 : 0
    }
    if case .serve(let port, let database) = invocation.mode {
      return await Serve.run(port: port, database: database, sink: sink, style: style)
    }

    // The state file is claimed for the whole session before it is read.
    let storage = invocation.statePath.map(StateFileStorage.init(path:))
    let lock: StateFileLock?
    let saved: StateFile?
    do {
      try storage?.checkKind()
      if let path = invocation.statePath {
        lock = try await StateFileLock.acquire(for: path)
      } else {
        lock = nil
      }
    } catch {
      sink.errorLine("demo-cli: cannot use the state file \(invocation.statePath ?? ""): \(error)")
      return 1
    }
    defer { lock?.release() }
    let journal: PublicationJournal
    do {
      saved = try storage?.load()
      storage?.sweepTemporaries()
      let kept: any JournalStorage =
        storage.map { JournalFile(url: $0.journalURL) } ?? InMemoryJournalStorage()
      journal = try PublicationJournal(storage: kept)
    } catch {
      sink.errorLine("demo-cli: cannot use the state file \(invocation.statePath ?? ""): \(error)")
      return 1
    }

    let opened: OpenedBackend
    switch await OpenedBackend.open(invocation, saved: saved, sink: sink) {
    case .success(let backend): opened = backend
    case .failure(let failure):
      sink.errorLine("demo-cli: \(Describe.oneLine(failure.reason))")
      return 1
    }
    let host =
      saved.map { DemoHost(restoring: $0, journal: journal, backend: opened.backend) }
      ?? DemoHost(backend: opened.backend, journal: journal)
    let status = await run(
      invocation, host: host, saved: saved, storage: storage, closingNote: opened.closingNote,
      terminal: terminal, style: style, sink: sink, readLine: readLine)
    await host.close()
    await opened.close()
    return status
  }

  /// Runs the walk or the repl on an opened backend; returns the exit status. A walk ends
  /// with `closingNote` (what the run leaves behind), if any.
  private static func run(
    _ invocation: Invocation, host: DemoHost, saved: StateFile?, storage: StateFileStorage?,
    closingNote: String?, terminal: Terminal, style: Style, sink: any OutputSink,
    readLine: () -> String?
  ) async -> Int32 {
    if let refusal = await restoredBaselineRefusal(host, statePath: invocation.statePath) {
      sink.errorLine("demo-cli: \(refusal)")
      return 1
    }
    if let storage {
      host.persistSystemCommits { try storage.save(await host.snapshot()) }
    }
    let executor = CommandExecutor(host: host)

    switch invocation.mode {
    case .walk, .help, .serve:
      let narrator = Narrator(sink: sink, style: style)
      var succeeded = await Walk(executor: executor, narrator: narrator)
        .run(restoredFrom: saved == nil ? nil : invocation.statePath)
      if let storage {
        do {
          try storage.save(await host.snapshot())
          try? await host.settleJournal()
          sink.line("")
          sink.line("state saved to \(storage.path)")
        } catch {
          sink.errorLine("demo-cli: the state was not saved to \(storage.path): \(error)")
          succeeded = false
        }
      }
      if let closingNote {
        sink.line("")
        sink.line(closingNote)
      }
      return succeeded && !sink.isBroken ? 0 : 1

    case .repl:
      await host.start()
      executor.reportsLiveNotices = true
      if terminal.inputIsTerminal {
        sink.line(
          style.bold("demo-cli repl") + " — the demo on \(host.place); 'help' lists the commands")
      }
      if saved != nil, let path = invocation.statePath {
        let printer = OutcomePrinter(style: style)
        var outcome = CommandOutcome.info("restored from \(path)")
        outcome.info("session: " + (host.state.session.map(Describe.session) ?? "signed out"))
        outcome.info(executor.admissionLine)
        outcome.info(executor.workspaceLine)
        printer.print(outcome, to: sink)
      }
      if var reconciled = await executor.reconcileInterruptedPublication() {
        await storage?.save(host, reportingIn: &reconciled)
        OutcomePrinter(style: style).print(reconciled, to: sink)
      }
      let status = await Repl(
        executor: executor, sink: sink, style: style, interactive: terminal.inputIsTerminal,
        storage: storage
      ).run(readLine: readLine)
      return sink.isBroken ? 1 : status
    }
  }

  /// Why a restored workspace cannot be used: its baseline is not a revision of the backend
  /// (a damaged or edited file, a remote that lost the commit). Refused rather than trusted as
  /// ready, or re-prepared over its edits.
  private static func restoredBaselineRefusal(_ host: DemoHost, statePath: String?) async
    -> String?
  {
    guard let baseline = host.session?.baseline, await host.events(at: baseline) == nil else {
      return nil
    }
    let place = host.remote == nil ? "in the saved system" : "on \(host.place)"
    return "cannot use the state file \(statePath ?? ""): its workspace's baseline "
      + "\(Describe.reference(baseline)) does not exist \(place); it was left as it is"
  }
}
