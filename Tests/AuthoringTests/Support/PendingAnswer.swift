import ComposableCore
import Testing

/// An endpoint answer that the test releases when it chooses.
///
/// The endpoint suspends in ``value()`` — ignoring cancellation, like a server that answers
/// anyway — the test waits until it got there with ``arrival()``, then answers with
/// ``resolve(_:)`` or ``fail(_:)``. No wall-clock waiting, except that an arrival that never
/// comes fails the test after a limit instead of hanging it.
final class PendingAnswer<Value: Sendable>: Sendable {
  private struct Box {
    var arrived = false
    var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
    var result: Result<Value, any Error>?
    var answerWaiter: CheckedContinuation<Result<Value, any Error>, Never>?
  }

  private let box = LockIsolated(Box())

  /// Called by the endpoint: suspends until the test answers.
  func value() async throws -> Value {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Value, any Error>, Never>) in
      let (ready, arrivalWaiters) = box.withValue { box in
        box.arrived = true
        defer { box.arrivalWaiters = [] }
        if box.result == nil { box.answerWaiter = continuation }
        return (box.result, box.arrivalWaiters)
      }
      for waiter in arrivalWaiters { waiter.resume() }
      if let ready { continuation.resume(returning: ready) }
    }
    return try result.get()
  }

  /// Suspends until the endpoint is waiting for its answer; fails the test if it does not
  /// get there within `limit`.
  func arrival(
    within limit: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let timer = Task {
      try? await Task.sleep(for: limit)
      let waiters = box.withValue { box -> [CheckedContinuation<Void, Never>] in
        defer { box.arrivalWaiters = [] }
        return box.arrived ? [] : box.arrivalWaiters
      }
      guard !waiters.isEmpty else { return }
      Issue.record("The endpoint was not called within \(limit).", sourceLocation: sourceLocation)
      for waiter in waiters { waiter.resume() }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let arrived = box.withValue { box in
        if !box.arrived { box.arrivalWaiters.append(continuation) }
        return box.arrived
      }
      if arrived { continuation.resume() }
    }
    timer.cancel()
  }

  /// Answers `value`.
  func resolve(_ value: Value) { answer(.success(value)) }

  /// Answers by throwing `error`.
  func fail(_ error: any Error) { answer(.failure(error)) }

  private func answer(_ result: Result<Value, any Error>) {
    let waiter = box.withValue { box in
      box.result = result
      defer { box.answerWaiter = nil }
      return box.answerWaiter
    }
    waiter?.resume(returning: result)
  }
}
