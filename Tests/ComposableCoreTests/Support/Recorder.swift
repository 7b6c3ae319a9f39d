import ComposableCore

/// A thread-safe log that tests append to from effects and observers.
final class Log<Entry: Sendable>: Sendable {
  private let entries = LockIsolated<[Entry]>([])
  func append(_ entry: Entry) { entries.withValue { $0.append(entry) } }
  var all: [Entry] { entries.current }
}

/// Suspends until `release()` is called (or the waiting task is cancelled), so a test controls
/// exactly when an effect's "server" answers.
final class Gate: Sendable {
  private let state = LockIsolated<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let open = state.withValue { state -> Bool in
        if !state.open { state.waiters.append(continuation) }
        return state.open
      }
      if open { continuation.resume() }
    }
  }

  func release() {
    let waiters = state.withValue { state -> [CheckedContinuation<Void, Never>] in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Sleeps until cancelled; records that cancellation reached it.
func sleepUntilCancelled(recording log: Log<String>, as name: String) async {
  await withTaskCancellationHandler {
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(3600))
    }
  } onCancel: {
    log.append("\(name) cancelled")
  }
}
