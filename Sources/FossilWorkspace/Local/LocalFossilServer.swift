import ComposableCore
import Foundation
import ProcessSupport
import WorkspaceHTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `fossil server` serving a local repository on 127.0.0.1, started and stopped by its
/// process id: for tests, demos and benchmarks.
///
/// ```swift
/// let server = try await LocalFossilServer.start(serving: repository)
/// let session = FossilSession(baseURL: server.baseURL)
/// …
/// await server.stop()
/// ```
///
/// Fossil refuses `--port 0`, so a free port is found first (the kernel picks one for a probe
/// socket that is closed at once); another process may take it before fossil listens, so a
/// start that finds its port busy ("unable to open listening socket") tries another one. The
/// server is ready once it answers `/json/stat` with this repository's project code — another
/// server on the same port never passes for it. The child runs in its own process group (so
/// stopping it ends the request handlers it forked too) and dies with this process.
public final class LocalFossilServer: Sendable {
  /// The repository served.
  public let repository: LocalFossilRepository
  /// The port it listens on.
  public let port: UInt16
  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL
  /// The server's process id (and its process group's).
  public let pid: pid_t
  private let run: Task<ProcessResult?, Never>
  private let exited: LockIsolated<Bool>

  private init(
    repository: LocalFossilRepository, port: UInt16, pid: pid_t,
    run: Task<ProcessResult?, Never>, exited: LockIsolated<Bool>
  ) {
    self.repository = repository
    self.port = port
    self.baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    self.pid = pid
    self.run = run
    self.exited = exited
  }

  /// Starts serving `repository` on `port`, or on a free port when `nil` (then up to
  /// `attempts` ports are tried, should another process take one first), and returns once the
  /// server answers for this repository.
  ///
  /// - Throws: ``LocalFossilServerError/portInUse(_:)`` when `port` (given) is busy;
  ///   ``LocalFossilServerError/didNotStart(_:)`` when fossil exits, or does not answer within
  ///   `readyWithin`.
  public static func start(
    serving repository: LocalFossilRepository, port: UInt16? = nil, attempts: Int = 5,
    readyWithin: Duration = .seconds(15)
  ) async throws -> LocalFossilServer {
    let candidates: [UInt16?] = port.map { [$0] } ?? Array(repeating: nil, count: max(1, attempts))
    return try await start(serving: repository, candidates: candidates, readyWithin: readyWithin)
  }

  /// Tries each candidate port in turn (`nil`: a free one) while the previous one was busy.
  static func start(
    serving repository: LocalFossilRepository, candidates: [UInt16?], readyWithin: Duration
  ) async throws -> LocalFossilServer {
    let projectCode = try await repository.projectCode()
    var lastError: LocalFossilServerError?
    for (index, candidate) in candidates.enumerated() {
      let port = try candidate ?? freePort()
      do {
        return try await start(
          repository, port: port, projectCode: projectCode, readyWithin: readyWithin)
      } catch LocalFossilServerError.portInUse(let busy) where index < candidates.count - 1 {
        lastError = .portInUse(busy)
      }
    }
    throw lastError ?? .didNotStart("no port was tried")
  }

  private static func start(
    _ repository: LocalFossilRepository, port: UInt16, projectCode: String, readyWithin: Duration
  ) async throws -> LocalFossilServer {
    let pidFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("fossil-server-\(UUID().uuidString).pid")
    let exited = LockIsolated(false)
    let fossil = repository.fossil
    // `sh` records its own pid, then becomes fossil (same pid, same process group).
    let run = Task<ProcessResult?, Never> {
      defer { exited.setValue(true) }
      return try? await ProcessRunner().run(
        URL(fileURLWithPath: "/bin/sh"),
        arguments: [
          "-c", #"echo $$ > "$0" && exec "$1" server --localhost --port "$2" "$3""#,
          pidFile.path, fossil.executable.path, "\(port)", repository.file.path,
        ],
        environment: fossil.environment)
    }
    let probe = HTTPSession(
      baseURL: URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/"),
      configuration: HTTPSessionConfiguration(timeout: .seconds(1)))
    let deadline = ContinuousClock.now.advanced(by: readyWithin)
    // The pid file lives only until it was read: a run killed later leaves nothing behind.
    var serverPID: pid_t?
    defer { try? FileManager.default.removeItem(at: pidFile) }
    while ContinuousClock.now < deadline {
      if exited.current {
        let message = (await run.value)?.errorText ?? ""
        throw message.contains("unable to open listening socket")
          ? LocalFossilServerError.portInUse(port)
          : LocalFossilServerError.didNotStart(Self.firstLine(message))
      }
      if serverPID == nil, let pid = readPID(pidFile) {
        serverPID = pid
        try? FileManager.default.removeItem(at: pidFile)
      }
      if let pid = serverPID, await answersFor(projectCode, probe) {
        return LocalFossilServer(
          repository: repository, port: port, pid: pid, run: run, exited: exited)
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    run.cancel()
    _ = await run.value
    throw LocalFossilServerError.didNotStart("it did not answer within \(readyWithin)")
  }

  /// Whether the process has ended.
  public var hasExited: Bool { exited.current }

  /// Stops the server: SIGTERM to its process group, SIGKILL after `grace` if it is still
  /// there; returns once it was reaped.
  public func stop(grace: Duration = .seconds(3)) async {
    await end(first: SIGTERM, grace: grace)
  }

  /// Kills the server and the request handlers it forked at once (SIGKILL to its process
  /// group), as a crash would; returns once it was reaped.
  public func kill() async {
    await end(first: SIGKILL, grace: .seconds(3))
  }

  private func end(first signal: Int32, grace: Duration) async {
    guard !exited.current else { return }
    signalGroup(signal)
    let run = self.run
    let reaped = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        _ = await run.value
        return true
      }
      group.addTask {
        try? await Task.sleep(for: grace)
        return false
      }
      defer { group.cancelAll() }
      return await group.next() ?? false
    }
    if !reaped {
      signalGroup(SIGKILL)
      _ = await run.value
    }
  }

  private func signalGroup(_ signal: Int32) {
    #if canImport(Glibc)
      _ = Glibc.kill(-pid, signal)
    #elseif canImport(Darwin)
      _ = Darwin.kill(-pid, signal)
    #endif
  }

  private static func readPID(_ file: URL) -> pid_t? {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
    return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  private static func answersFor(_ projectCode: String, _ probe: HTTPSession) async -> Bool {
    struct Stat: Decodable { var projectCode: String }
    guard let response = try? await probe.send(.get("/json/stat", access: .public)),
      let stat = try? FossilAnswer.payload(response, of: "GET /json/stat", as: Stat.self)
    else { return false }
    return stat.projectCode == projectCode
  }

  private static func firstLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "fossil exited"
  }

  /// A port nobody listens on now: the kernel's pick for a probe socket on 127.0.0.1.
  static func freePort() throws -> UInt16 {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else {
      throw LocalFossilServerError.didNotStart("no socket for a port probe")
    }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0
          && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else { throw LocalFossilServerError.didNotStart("no free port for a probe") }
    return UInt16(bigEndian: address.sin_port)
  }
}

/// Why a ``LocalFossilServer`` did not start.
public enum LocalFossilServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Something else listens on the port.
  case portInUse(UInt16)
  /// Fossil exited, or never answered (its first line of error, or what happened).
  case didNotStart(String)

  public var description: String {
    switch self {
    case .portInUse(let port):
      "fossil server cannot listen on 127.0.0.1:\(port): the port is in use"
    case .didNotStart(let reason): "fossil server did not start: \(reason)"
    }
  }
}
