import ComposableCore
import Foundation

/// The one thread that starts every child process, for the life of the process.
///
/// On Linux a child's parent-death signal (`PR_SET_PDEATHSIG`, set by ``ChildProcess``) fires
/// when the *thread* that spawned it ends, not only the process. Swift's cooperative threads
/// and Dispatch's workers end when idle, which would kill a long `git push` for no reason; this
/// thread never ends, so the signal fires only when the process does.
final class SpawnThread: @unchecked Sendable {
  static let shared = SpawnThread()

  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []

  private init() {
    let thread = Thread { [self] in serve() }
    thread.name = "ChildProcess spawner"
    thread.start()
  }

  /// Runs `body` on the spawner thread and answers its result; the calling task is suspended
  /// meanwhile (its thread goes on with other tasks).
  func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
      enqueue { continuation.resume(returning: body()) }
    }
  }

  /// Runs `body` on the spawner thread and waits for it, blocking the calling thread: only
  /// for a thread that is not a cooperative one (a signal handler's, about to exit).
  func runAndWait(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    enqueue {
      body()
      done.signal()
    }
    done.wait()  // sync-wait: a signal-handling thread, never a cooperative one (terminateAll)
  }

  private func enqueue(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func serve() -> Never {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }  // sync-wait: the spawner thread, idle
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }
}
