import ComposableCore
import Foundation
import LoopbackSockets
import WorkspaceHTTP

/// The server's open connections and what runs for each, so `stop()` can end them all.
final class ConnectionRegistry: Sendable {
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

  private let state = LockIsolated(State())
  private let threads = DispatchGroup()

  var openCount: Int { state.withValue { $0.entries.count } }

  /// Registers a connection whose thread is starting; `nil` when the server is stopping.
  func open(_ connection: LoopbackConnection) -> Int? {
    let id = state.withValue { state -> Int? in
      guard !state.stopping else { return nil }
      state.nextID += 1
      state.entries[state.nextID] = Entry(connection: connection)
      return state.nextID
    }
    if id != nil { threads.enter() }
    return id
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

  /// The connection's thread has ended.
  func close(_ id: Int) {
    let removed = state.withValue { $0.entries.removeValue(forKey: id) }
    if removed != nil { threads.leave() }
  }

  /// Wakes every connection, cancels every handler, and waits (up to `timeout`) for every
  /// connection thread to end.
  func closeAll(timeout: Duration) async {
    let entries = state.withValue { state -> [Entry] in
      state.stopping = true
      return Array(state.entries.values)
    }
    for entry in entries {
      entry.writer?.markDisconnected()
      entry.task?.cancel()
      entry.connection.shutDown()
    }
    let milliseconds = Int(timeout.components.seconds * 1000)
    await withBlockingWork("LoopbackHTTPServer.stop") { [threads] in
      // sync-wait: a queue of its own (withBlockingWork); bounded by `timeout`
      _ = threads.wait(timeout: .now() + .milliseconds(milliseconds))
    }
  }
}
