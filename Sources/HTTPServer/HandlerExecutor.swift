import Dispatch

/// Where one connection's handlers run: a serial queue of the connection's own, not Swift's
/// cooperative pool.
///
/// A handler task started here (SE-0417 task-executor preference) runs its nonisolated code,
/// the default actors it calls and its child tasks on the queue. So the server answers at the
/// pace of its own threads even when the process's pool is saturated — a test process running
/// hundreds of tests on two pool threads, an app whose pool is busy — and a client's timeout
/// measures the server, not the pool. Main-actor code and actors with executors of their own
/// still run where they belong. On systems without task executors (before macOS 15 / iOS 18)
/// handlers run on the pool, as plain tasks.
struct HandlerExecutor: Sendable {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Starts `operation` as a task that prefers this executor.
  func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return Task(executorPreference: QueueTaskExecutor(queue: queue), operation: operation)
    }
    return Task(operation: operation)
  }
}

/// Runs every job it is given on `queue`, in order.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class QueueTaskExecutor: TaskExecutor, Sendable {
  private let queue: DispatchQueue

  init(queue: DispatchQueue) {
    self.queue = queue
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
  }
}
