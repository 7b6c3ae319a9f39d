import ComposableCore
import Testing

/// A thread-safe log that tests append to from effects and observers, and can wait on.
final class Log<Entry: Sendable & Equatable>: Sendable {
  private struct Contents {
    var entries: [Entry] = []
    var waiters: [(entry: Entry, continuation: CheckedContinuation<Void, Never>)] = []
  }
  private let contents = LockIsolated(Contents())

  func append(_ entry: Entry) {
    let woken = contents.withValue { contents -> [CheckedContinuation<Void, Never>] in
      contents.entries.append(entry)
      let matching = contents.waiters.filter { $0.entry == entry }.map(\.continuation)
      contents.waiters.removeAll { $0.entry == entry }
      return matching
    }
    for continuation in woken { continuation.resume() }
  }

  var all: [Entry] { contents.withValue { $0.entries } }

  /// Waits until `entry` was appended; the test fails (and the wait ends) after `timeout`.
  func wait(
    for entry: Entry, timeout: Duration = .seconds(15),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let arrived = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await withCheckedContinuation { continuation in
          let present = self.contents.withValue { contents -> Bool in
            if contents.entries.contains(entry) { return true }
            contents.waiters.append((entry, continuation))
            return false
          }
          if present { continuation.resume() }
        }
        return true
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      if !first { self.release(entry) }
      group.cancelAll()
      return first
    }
    #expect(arrived, "\(entry) was not logged within \(timeout)", sourceLocation: sourceLocation)
  }

  /// Ends waits for `entry` (after a timeout), so no waiter is left behind.
  private func release(_ entry: Entry) {
    let waiting = contents.withValue { contents -> [CheckedContinuation<Void, Never>] in
      defer { contents.waiters.removeAll { $0.entry == entry } }
      return contents.waiters.filter { $0.entry == entry }.map(\.continuation)
    }
    for continuation in waiting { continuation.resume() }
  }
}

/// Suspends until `release()` is called (or the waiting task is cancelled), so a test controls
/// exactly when an effect's "server" answers. A wait is bounded: after `timeout` it ends and
/// the test fails, so a broken rule never hangs the suite.
final class Gate: Sendable {
  private struct Contents {
    var open = false
    var lastID = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
  }
  private let state = LockIsolated(Contents())

  /// Waits for `release()`, ignoring cancellation (as uncooperative work does), for at most
  /// `timeout` of wall time.
  func wait(
    timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let released = await withCheckedContinuation {
      (continuation: CheckedContinuation<Bool, Never>) in
      let id = state.withValue { state -> Int? in
        guard !state.open else { return nil }
        state.lastID += 1
        state.waiters[state.lastID] = continuation
        return state.lastID
      }
      guard let id else { return continuation.resume(returning: true) }
      // Not a child task: the waiting task's cancellation must not end the wait early.
      Task.detached { [state] in
        try? await Task.sleep(for: timeout)
        state.withValue { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
      }
    }
    #expect(released, "the gate was not released within \(timeout)", sourceLocation: sourceLocation)
  }

  func release() {
    let waiters = state.withValue { state -> [CheckedContinuation<Bool, Never>] in
      state.open = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: true) }
  }
}

/// Logs "`name` started", then sleeps until cancelled and logs "`name` cancelled".
///
/// "started" is logged once the cancellation handler is in place, so a cancellation after it
/// logs "cancelled" on the cancelling thread before `cancel()` returns: a test that saw
/// "started" can read "cancelled" right after cancelling. An effect cancelled before it got
/// here logs neither (as one cancelled before it began): the two always come as a pair.
func sleepUntilCancelled(recording log: Log<String>, as name: String) async {
  let started = LockIsolated(false)
  await withTaskCancellationHandler {
    let logged = started.withValue { started -> Bool in
      guard !Task.isCancelled else { return false }
      log.append("\(name) started")
      started = true
      return true
    }
    guard logged else { return }
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(3600))
    }
  } onCancel: {
    started.withValue { started in
      if started { log.append("\(name) cancelled") }
    }
  }
}
