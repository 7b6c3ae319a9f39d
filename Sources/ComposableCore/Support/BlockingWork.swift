import Dispatch

/// Runs `body`, which may block its thread (a semaphore, `poll`, `waitpid`, a call that waits
/// on another queue), on a serial Dispatch queue of its own, and resumes the caller with its
/// result.
///
/// Swift concurrency runs every task on a cooperative pool with one thread per core: a task
/// that blocks one of them takes a core's worth of progress from the whole process, and two
/// such tasks on a two-core machine stop every task until the wait ends (forever, if what it
/// waits for needs a task to run). A serial queue targets Dispatch's overcommitting root queue,
/// which starts a thread for it even when every other thread is busy, so `body` may block for
/// as long as it needs while the pool goes on.
///
/// ```swift
/// let status = await withBlockingWork("waitpid") {
///   var status: Int32 = 0
///   while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
///   return status
/// }
/// ```
///
/// Cancelling the calling task does not interrupt `body`: pair the wait with a way to end it
/// (a signal to the child, a write to a wake-up pipe) in a cancellation handler.
///
/// - Parameters:
///   - label: names the queue (and so the thread) in a debugger's or a stack dump's list.
///   - body: the blocking work.
/// - Returns: what `body` returned.
public func withBlockingWork<T: Sendable>(
  _ label: String, _ body: @escaping @Sendable () -> T
) async -> T {
  await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
    DispatchQueue(label: label).async {
      continuation.resume(returning: body())
    }
  }
}
