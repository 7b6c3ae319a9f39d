import ComposableCore
import Foundation
import HTTPMessages
import LoopbackSockets

/// The server's open connections (at most `maxConnections`), what runs for each, and the
/// threads answering them, so `stop()` can end them all.
final class ConnectionRegistry: Sendable {
  /// Whether a new connection may be served.
  enum Admission: Equatable {
    case admitted(id: Int)
    /// `maxConnections` are open.
    case full
    case stopping
  }

  private struct Entry {
    let connection: LoopbackConnection
    var task: Task<Void, Never>?
    var writer: EventStreamWriter?
  }

  private struct State {
    var entries: [Int: Entry] = [:]
    var nextID = 0
    var stopping = false
  }

  let maxConnections: Int
  private let state = LockIsolated(State())
  private let threads = DispatchGroup()

  init(maxConnections: Int) {
    self.maxConnections = maxConnections
  }

  var openCount: Int { state.withValue { $0.entries.count } }

  /// Whether the server is stopping (``disconnectAll()`` was called).
  var isStopping: Bool { state.withValue { $0.stopping } }

  /// Registers a newly accepted connection, unless the server is full or stopping.
  func admit(_ connection: LoopbackConnection) -> Admission {
    state.withValue { state in
      guard !state.stopping else { return .stopping }
      guard state.entries.count < maxConnections else { return .full }
      state.nextID += 1
      state.entries[state.nextID] = Entry(connection: connection)
      return .admitted(id: state.nextID)
    }
  }

  /// Runs `body` on a new thread that `stop()` waits for; `false` (nothing started) when the
  /// server is stopping.
  func startThread(named name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    let started = state.withValue { [threads] state -> Bool in
      guard !state.stopping else { return false }
      threads.enter()
      return true
    }
    guard started else { return false }
    let thread = Thread { [threads] in
      body()
      threads.leave()
    }
    thread.name = name
    thread.start()
    return true
  }

  /// Records the task now running for connection `id` (cancelled at once if stopping).
  func setTask(_ task: Task<Void, Never>?, writer: EventStreamWriter? = nil, for id: Int) {
    let stopping = state.withValue { state -> Bool in
      state.entries[id]?.task = task
      state.entries[id]?.writer = writer
      return state.stopping
    }
    if stopping {
      task?.cancel()
      writer?.markDisconnected()
    }
  }

  /// Closes connection `id` for good.
  func close(_ id: Int) {
    let removed = state.withValue { $0.entries.removeValue(forKey: id) }
    removed?.connection.close()
  }

  /// Lets go of connection `id` without closing its descriptor: ends both directions and
  /// leaves the close to the connection's last owner (how every event stream ends: its
  /// producer, or a writer it handed elsewhere, may still be writing, and a descriptor closed
  /// under it could be reused by another connection).
  func abandon(_ id: Int) {
    let removed = state.withValue { $0.entries.removeValue(forKey: id) }
    removed?.connection.shutDown()
  }

  /// Refuses new connections and threads, cancels every handler, and wakes every connection
  /// (a thread blocked on one returns; a watched one reads its end).
  func disconnectAll() {
    let entries = state.withValue { state -> [Entry] in
      state.stopping = true
      return Array(state.entries.values)
    }
    for entry in entries {
      entry.writer?.markDisconnected()
      entry.task?.cancel()
      entry.connection.shutDown()
    }
  }

  /// Waits (up to `timeout`) for every connection thread to end.
  func waitForThreads(timeout: Duration) async {
    let milliseconds = timeout.wholeMilliseconds
    await withBlockingWork("LoopbackHTTPServer.stop") { [threads] in
      // sync-wait: a queue of its own (withBlockingWork); bounded by `timeout`
      _ = threads.wait(timeout: .now() + .milliseconds(milliseconds))
    }
  }
}
