import ComposableCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Carries the sync messages of a `fossil clone`/`pull`/`push` to the server through this
/// process's own HTTP session, so the login never leaves it.
///
/// Fossil's `--transport-command CMD` runs `CMD URL UPLINK DOWNLINK` for each round trip: the
/// message to send is in the file `UPLINK`, the reply goes in the file `DOWNLINK`. The command
/// here is `sh` reading a two-line script in a folder only this user can open (0700): it writes the
/// two file names into a named pipe this relay reads, and waits on a second named pipe for
/// `ok` or `fail`. The relay posts the message with ``exchange`` (the session's cookie jar, in
/// memory) and writes the reply. So neither the password nor the login cookie is ever in a
/// child's arguments, its environment or a file; the only files are fossil's own message files
/// (repository content, no credentials: the URL fossil is given has no user, so it adds no
/// login card).
///
/// ```swift
/// let relay = try FossilSyncRelay(in: scratch) { message in
///   try await session.syncExchange(message, access: .public)
/// }
/// try await fossil.run(["pull", url, "--once", "--transport-command", relay.command])
/// await relay.stop()
/// try relay.check()   // the first failed exchange, if any (fossil exits 0 on many)
/// ```
final class FossilSyncRelay: Sendable {
  /// What fossil is given as `--transport-command` (`/bin/sh` and the script's path, quoted).
  let command: String
  private let folder: URL
  private let requests: Int32
  private let answers: Int32
  private let state = LockIsolated(RelayState())
  private let done = DispatchSemaphore(value: 0)

  private struct RelayState {
    var failure: (any Error)?
    var exchange: Task<Void, Never>?
  }

  /// Creates the relay's private folder inside `parent` and starts serving.
  ///
  /// - Parameter exchange: posts one uncompressed sync message and answers the reply's body.
  init(in parent: URL, exchange: @escaping @Sendable (Data) async throws -> Data) throws {
    folder = parent.appendingPathComponent(".sync-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let requestPipe = folder.appendingPathComponent("requests").path
    let answerPipe = folder.appendingPathComponent("answers").path
    let script = folder.appendingPathComponent("transport")
    do {
      guard mkfifo(requestPipe, 0o600) == 0, mkfifo(answerPipe, 0o600) == 0 else {
        throw FossilSyncError.relay("no named pipe in \(folder.path): errno \(errno)")
      }
      let text = """
        #!/bin/sh
        # fossil runs: transport URL UPLINK DOWNLINK (see FossilSyncRelay)
        printf '%s\\n%s\\n' "$2" "$3" > \(Self.quoted(requestPipe)) || exit 1
        IFS= read -r answer < \(Self.quoted(answerPipe)) || exit 1
        [ "$answer" = ok ]

        """
      try Data(text.utf8).write(to: script)
      // Held open for reading and writing for the relay's life: neither side ever blocks in
      // `open`, and a line written before its reader arrives waits in the pipe.
      requests = open(requestPipe, O_RDWR | O_CLOEXEC)
      answers = open(answerPipe, O_RDWR | O_CLOEXEC)
      guard requests >= 0, answers >= 0 else {
        throw FossilSyncError.relay("cannot open the relay's pipes: errno \(errno)")
      }
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
    // Read by `sh`, never executed itself: a file just written cannot be exec'd while a
    // child forked meanwhile by another thread still holds the write descriptor (ETXTBSY);
    // fossil would then only warn "Transport command failed" and exit 0.
    command = "/bin/sh " + Self.quoted(script.path)
    let thread = Thread { [self] in serve(exchange) }
    thread.name = "Fossil sync relay"
    thread.start()
  }

  /// Throws the first exchange that failed (the session's error), if any.
  func check() throws {
    if let failure = state.withValue({ $0.failure }) { throw failure }
  }

  /// Stops serving (an exchange in flight is cancelled), closes the pipes and removes the
  /// folder. Call it once, after the fossil command ended.
  func stop() async {
    state.withValue { $0.exchange?.cancel() }
    _ = "stop\n".withCString { write(requests, $0, 5) }
    let done = self.done
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        done.wait()  // sync-wait: a Dispatch worker, never a cooperative thread
        continuation.resume()
      }
    }
    close(requests)
    close(answers)
    try? FileManager.default.removeItem(at: folder)
  }

  // MARK: The relay thread

  private func serve(_ exchange: @escaping @Sendable (Data) async throws -> Data) {
    defer { done.signal() }
    var lines = LineReader(descriptor: requests)
    while let uplink = lines.next(), uplink != "stop", let downlink = lines.next() {
      let carried = carry(uplink: uplink, downlink: downlink, exchange)
      let answer = carried ? "ok\n" : "fail\n"
      _ = answer.withCString { write(answers, $0, strlen($0)) }
    }
  }

  /// One round trip; `false` when it failed (the failure is kept for ``check()``).
  private func carry(
    uplink: String, downlink: String, _ exchange: @escaping @Sendable (Data) async throws -> Data
  ) -> Bool {
    guard state.withValue({ $0.failure == nil }) else { return false }
    do {
      let message = try Data(contentsOf: URL(fileURLWithPath: uplink))
      let result = LockIsolated<Result<Data, any Error>?>(nil)
      let finished = DispatchSemaphore(value: 0)
      state.withValue { state in
        state.exchange = Task {
          do {
            result.setValue(.success(try await exchange(message)))
          } catch {
            result.setValue(.failure(error))
          }
          finished.signal()
        }
      }
      finished.wait()  // sync-wait: the relay's own thread, never a cooperative one
      guard let outcome = result.current else { throw CancellationError() }
      try Self.writeNew(try outcome.get(), to: downlink)
      return true
    } catch {
      state.withValue { if $0.failure == nil { $0.failure = error } }
      return false
    }
  }

  /// Writes `data` into a file that must not exist yet (never through a link), owner-only.
  private static func writeNew(_ data: Data, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw FossilSyncError.relay("cannot create fossil's reply file \(path): errno \(errno)")
    }
    defer { close(descriptor) }
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(
          descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else {
          throw FossilSyncError.relay("cannot write fossil's reply file: errno \(errno)")
        }
        offset += written
      }
    }
  }

  /// `text` quoted for `sh` (single quotes; a single quote becomes `'\''`).
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

/// Lines read from a descriptor, blocking.
private struct LineReader {
  let descriptor: Int32
  private var buffer: [UInt8] = []

  init(descriptor: Int32) { self.descriptor = descriptor }

  mutating func next() -> String? {
    while true {
      if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(...end)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(descriptor, &chunk, chunk.count)  // sync-wait: the relay thread alone
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}

/// A sync with the Fossil server through its local clone failed.
public enum FossilSyncError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The relay that carries fossil's messages could not be set up or write a reply.
  case relay(String)
  /// `fossil` reported an error the server sent (its words: "not authorized to write", …).
  case refused(command: String, reason: String)
  /// The local clone could not be taken: its lock file cannot be opened, or another process
  /// kept working on it for longer than the client waits.
  case cloneBusy(String)

  public var description: String {
    switch self {
    case .relay(let reason): "the Fossil sync relay failed: \(reason)"
    case .refused(let command, let reason): "fossil \(command): the server refused: \(reason)"
    case .cloneBusy(let reason): "the local Fossil clone cannot be used now: \(reason)"
    }
  }
}
