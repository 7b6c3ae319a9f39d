import DemoBackendInterface
import DemoGitBackend
import Foundation

/// The tool: parses the arguments, opens the state file and the backend, and runs the walk or
/// the repl.
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
    let backend: any DemoBackend
    let temporaryFolder: URL?
    switch await openBackend(invocation, saved: saved, sink: sink) {
    case .success(let opened): (backend, temporaryFolder) = opened
    case .failure(let failure):
      sink.errorLine("demo-cli: \(failure.reason)")
      return 1
    }
    // Temporary working copies go when the run ends (with --state they stay beside the file).
    defer {
      if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) }
    }
    let host = saved.map { DemoHost(restoring: $0, backend: backend) } ?? DemoHost(backend: backend)
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
      if let remote = host.remote {
        sink.line("")
        sink.line("the remote stays: git --git-dir \(remote) for-each-ref")
      }
      return succeeded ? 0 : 1

    case .repl:
      await host.start()
      if terminal.inputIsTerminal {
        let place = host.remote.map { "the Git remote \($0)" } ?? "an in-memory system"
        sink.line(style.bold("demo-cli repl") + " — the demo on \(place); 'help' lists the commands")
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

  /// The backend `invocation` asks for: the in-memory system, or a Git remote opened (created,
  /// seeded when empty) with its working copies beside the state file (`FILE.workspaces`) or
  /// in a temporary folder (answered too, to be removed at exit). A state file is reopened
  /// only with the backend it was made with.
  private static func openBackend(
    _ invocation: Invocation, saved: StateFile?, sink: any OutputSink
  ) async -> Result<(any DemoBackend, temporaryFolder: URL?), Refusal> {
    guard let choice = invocation.remote else {
      if let remote = saved?.remote {
        return .failure(
          Refusal(
            "the state file \(invocation.statePath ?? "") belongs to the Git remote \(remote); "
              + "add --backend git --remote \(remote)"))
      }
      return .success((MemoryBackend(), nil))
    }
    if let saved, saved.remote == nil || choice == .new {
      let made = saved.remote.map { "the Git remote \($0)" } ?? "the in-memory system"
      return .failure(
        Refusal("the state file \(invocation.statePath ?? "") belongs to \(made), not to this remote"))
    }
    let opened: GitRemoteSetup.Opened
    do {
      opened = try await GitRemoteSetup().open(choice)
    } catch {
      return .failure(Refusal(error.description))
    }
    if let saved, saved.remote != opened.remote {
      return .failure(
        Refusal(
          "the state file \(invocation.statePath ?? "") belongs to the Git remote \(saved.remote ?? ""), "
            + "not \(opened.remote)"))
    }
    if opened.created {
      sink.line(
        "remote: \(opened.remote) (new bare repository, seeded with published and festival; "
          + "its hook guards the head of every proposal)")
    } else if opened.seeded {
      sink.line("remote: \(opened.remote) was empty; seeded it with published and festival")
    }
    guard let path = invocation.statePath else {
      let temporary = FileManager.default.temporaryDirectory
        .appendingPathComponent("demo-cli-workspaces-\(UUID().uuidString)", isDirectory: true)
        .standardizedFileURL
      return .success(
        (GitBackend(remote: opened.remote, root: temporary, headGuard: opened.headGuard), temporary))
    }
    let root = URL(fileURLWithPath: path + ".workspaces", isDirectory: true).standardizedFileURL
    return .success((GitBackend(remote: opened.remote, root: root, headGuard: opened.headGuard), nil))
  }
}
