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

  /// Runs `body` on the spawner thread and answers its result (the caller waits: spawning
  /// takes microseconds); `nil` only if the job never ran, which cannot happen.
  func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    let result = LockIsolated<T?>(nil)
    condition.lock()
    jobs.append {
      result.setValue(body())
      done.signal()
    }
    condition.signal()
    condition.unlock()
    done.wait()
    return result.current
  }

  private func serve() -> Never {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }
}
