import ComposableCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A URLSession whose calls that wait are never made on a cooperative thread.
///
/// FoundationNetworking (swift-corelibs-foundation, Swift 6.3) makes a task's `resume()` and
/// `cancel()`, `dataTask(with:)` and `invalidateAndCancel()` wait synchronously for the
/// session's work queue — the queue that also completes requests and, doing so, resumes the
/// awaiting task, which takes that task's status lock. Its own `data(for:)` cancels inside a
/// task cancellation handler, where the canceller holds that very lock: the canceller waits
/// for the queue, the queue for the lock, and both threads stop for good
/// (swift-corelibs-foundation#5412, fixed after 6.3). On a two-core machine two such threads
/// are the whole cooperative pool.
///
/// Here every such call runs on one of a few serial queues shared by every transport (one per
/// transport, always the same, so its calls keep their order), and the cancellation handler
/// only marks the request and hands the `cancel()` to that queue, so no cooperative thread
/// ever waits for FoundationNetworking, whatever a task's cancellation, a request's failure
/// and a session's release race against. The queues are few on purpose: each waits on its
/// thread, and a queue per transport made a thread per released session — hundreds under
/// load, until Dispatch had none left for the work queues they wait for.
final class URLTransport: Sendable {
  private let session: URLSession
  private let queue: DispatchQueue
  /// Set on ``queue`` by ``invalidate()``: a request started afterwards is refused (creating a
  /// task on an invalidated session traps).
  private let invalidated = LockIsolated(false)

  init(
    configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
    delegateQueue: OperationQueue? = nil
  ) {
    session = URLSession(
      configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    queue =
      Self.queues[
        Self.nextQueue.withValue { next in
          defer { next = (next + 1) % Self.queues.count }
          return next
        }]
  }

  /// The queues the transports' waiting calls run on: at most this many threads wait on
  /// FoundationNetworking at once.
  private static let queues = (0..<4).map { DispatchQueue(label: "URLTransport.\($0)") }
  private static let nextQueue = LockIsolated(0)

  /// A request that can be cancelled from anywhere, before or after it started.
  final class Request: Sendable {
    private struct State {
      var task: URLSessionDataTask?
      var cancelled = false
    }
    private let state = LockIsolated(State())
    private let queue: DispatchQueue

    /// A request to start on `transport`.
    init(on transport: URLTransport) {
      queue = transport.queue
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { state.withValue { $0.cancelled } }

    /// Stops the request: its task is cancelled on the transport's queue, or is never
    /// started. Never waits: safe in a task cancellation handler.
    func cancel() {
      let started = state.withValue { state -> URLSessionDataTask? in
        state.cancelled = true
        return state.task
      }
      // sync-wait: the transport's queue, never the caller's (a cancellation handler's)
      if let started { queue.async { started.cancel() } }
    }

    /// Records the task; `false` when the request was cancelled first.
    fileprivate func attach(_ task: URLSessionDataTask) -> Bool {
      state.withValue { state in
        guard !state.cancelled else { return false }
        state.task = task
        return true
      }
    }
  }

  /// Starts `urlRequest` on the transport's queue as a task of the session (whose delegate
  /// hears its progress), unless `request` was cancelled or the transport invalidated by then:
  /// `refused` is called instead.
  ///
  /// - Parameters:
  ///   - completion: for a completion-handler task (`nil`: the session's delegate hears it).
  func start(
    _ urlRequest: URLRequest, as request: Request,
    completion: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)? = nil,
    refused: @escaping @Sendable () -> Void
  ) {
    // sync-wait: the transport's queue — dataTask, resume and cancel wait for the session's
    queue.async { [session, invalidated] in
      guard !request.isCancelled, !invalidated.current else { return refused() }
      // sync-wait: the transport's queue (dataTask, resume, cancel)
      let task =
        completion.map { session.dataTask(with: urlRequest, completionHandler: $0) }
        ?? session.dataTask(with: urlRequest)
      task.resume()  // sync-wait: the transport's queue
      if !request.attach(task) { task.cancel() }  // sync-wait: the transport's queue
    }
  }

  /// The answer to `urlRequest` (URLSession's `data(for:)`, without its waits). Cancelling the
  /// calling task cancels the request; it then throws `URLError(.cancelled)`.
  func data(for urlRequest: URLRequest) async throws -> (Data, URLResponse) {
    let request = Request(on: self)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
        start(
          urlRequest, as: request,
          completion: { data, response, error in
            if let error {
              continuation.resume(throwing: error)
            } else if let response {
              continuation.resume(returning: (data ?? Data(), response))
            } else {
              continuation.resume(throwing: URLError(.badServerResponse))
            }
          },
          refused: { continuation.resume(throwing: URLError(.cancelled)) })
      }
    } onCancel: {
      request.cancel()
    }
  }

  /// Cancels every task and lets the session go, on the transport's queue: returns at once.
  /// Requests started afterwards are refused.
  func invalidate() {
    queue.async { [session, invalidated] in
      invalidated.setValue(true)
      session.invalidateAndCancel()  // sync-wait: the transport's queue
    }
  }
}
