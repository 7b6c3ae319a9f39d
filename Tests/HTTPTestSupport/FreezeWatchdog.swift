import Foundation

/// Ends the test process with a message when a test has not disarmed it within its bound.
///
/// A test that may freeze the whole process (every cooperative thread blocked) cannot bound
/// itself with a task: no task runs any more, the test's own timeout included. The watchdog
/// waits on a thread of its own, outside the pool: if the bound passes, it writes what froze to
/// standard error and exits with status 70, so a regression fails the run with a message
/// instead of hanging it until CI's time limit.
///
/// ```swift
/// let watchdog = FreezeWatchdog(seconds: 120, "sessions released while their requests fail")
/// defer { watchdog.disarm() }
/// ```
public final class FreezeWatchdog: Sendable {
  private let disarmed = DispatchSemaphore(value: 0)

  public init(seconds: Int, _ what: String) {
    let disarmed = self.disarmed
    let thread = Thread {
      // sync-wait: the watchdog's own thread
      guard disarmed.wait(timeout: .now() + .seconds(seconds)) == .timedOut else { return }
      let message =
        "FREEZE: \(what) made no progress in \(seconds) s: the cooperative pool is blocked"
        + " (a synchronous wait on a cooperative thread). Ending the test process.\n"
      FileHandle.standardError.write(Data(message.utf8))
      exit(70)
    }
    thread.name = "FreezeWatchdog"
    thread.start()
  }

  /// The test ended in time: the watchdog stands down.
  public func disarm() {
    disarmed.signal()
  }
}
