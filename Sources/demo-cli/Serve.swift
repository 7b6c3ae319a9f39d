import DemoServer
import Foundation
import WorkspaceDemoFeature

/// `demo-cli serve [--port N] [--database FILE]`: the demo system behind its HTTP protocol on
/// 127.0.0.1, until the process is interrupted (SIGINT, SIGTERM, SIGHUP). With `--database`
/// the system is kept in FILE (``DurableDemoSystem``: created and seeded when missing,
/// reopened with everything it held otherwise); without, it lives in memory. Each answered request is logged as
/// one line (method, path, status: never a query, cookie or body), and so is each request or
/// connection the server refused (with the reason).
@MainActor
enum Serve {
  static func run(port: UInt16, database: String?, sink: any OutputSink, style: Style) async
    -> Int32
  {
    let server: DemoServer
    do {
      let system: any ServedSystem =
        if let database { try await DurableDemoSystem(path: database) } else { DemoSystem() }
      server = try DemoServer(
        port: port,
        service: DemoService(system: system, configuration: .init(log: Self.logLine)))
    } catch {
      sink.errorLine("demo-cli: \(error)")
      return 1
    }
    let url = server.baseURL.absoluteString
    sink.line(style.bold("demo server listening on \(url)"))
    sink.line("  in another terminal: demo-cli --backend http --remote \(url)")
    sink.line("  accounts: ada/lovelace and grace/hopper may author; linus/torvalds may only read")
    if let database {
      sink.line("  everything is kept in \(database) (SQLite); Ctrl-C stops the server")
    } else {
      sink.line("  the in-memory system lives as long as this process; Ctrl-C stops it")
    }
    // The interruption's handler (see TemporaryFolders) ends the process.
    while (try? await Task.sleep(for: .seconds(3600))) != nil {}
    await server.stop()
    return 0
  }

  /// Writes one line to standard output in a single write(2), from any thread.
  nonisolated private static func logLine(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  }
}
