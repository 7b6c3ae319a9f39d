import ComposableCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread that watches many connections until each has something to read or passes its
/// deadline: a connection waiting for its peer then costs a descriptor, not a thread.
///
/// A watch is one-shot: the connection's callback runs once, on the watch's thread, with
/// ``Event/readable``, ``Event/deadlinePassed`` or (after ``stop()``) ``Event/stopped``, and
/// the connection is no longer watched. The callback must not block: read what arrived without
/// waiting, then watch again, hand the connection to a thread of its own, or close it.
///
/// ```swift
/// let watch = ReadinessWatch(name: "idle")
/// watch.watch(connection, until: .now + .seconds(10)) { event in
///   guard event == .readable, let bytes = try? connection.receiveWithoutWaiting(upTo: 4096)
///   else { return connection.close() }
///   // … use the bytes, then watch again or hand the connection on …
/// }
/// ```
///
/// Each wake polls every watched descriptor: O(n) in the connections watched, which suits the
/// hundreds to thousands a loopback server keeps.
public final class ReadinessWatch: Sendable {
  /// Why a watch ended.
  public enum Event: Sendable, Equatable {
    /// The peer sent bytes, finished sending, or failed: a read will not wait.
    case readable
    /// The deadline came first.
    case deadlinePassed
    /// The watch was stopped; the connection is the callback's to close.
    case stopped
  }

  private struct Watched {
    let connection: LoopbackConnection
    let deadline: ContinuousClock.Instant
    let onEvent: @Sendable (Event) -> Void
  }

  private struct State {
    var added: [Watched] = []
    var stopped = false
  }

  private let state = LockIsolated(State())
  private let wake: (read: Int32, write: Int32)
  private let finished = DispatchSemaphore(value: 0)

  /// Starts the watch's thread, named `name`.
  public init(name: String) throws(LoopbackSocketError) {
    wake = try SystemCall.makeWakePipe()
    let thread = Thread { [state, wake, finished] in
      Self.run(state: state, wake: wake.read)
      SystemCall.close(wake.read)
      finished.signal()
    }
    thread.name = name
    thread.start()
  }

  /// Watches `connection` until it is readable or `deadline` passes, then calls `onEvent` once
  /// on the watch's thread. After ``stop()``, calls it at once with ``Event/stopped``.
  public func watch(
    _ connection: LoopbackConnection, until deadline: ContinuousClock.Instant,
    onEvent: @escaping @Sendable (Event) -> Void
  ) {
    let accepted = state.withValue { [wake] state -> Bool in
      guard !state.stopped else { return false }
      state.added.append(Watched(connection: connection, deadline: deadline, onEvent: onEvent))
      // Under the lock: `stop()` closes this end only after `stopped` was set.
      var byte: UInt8 = 1
      _ = write(wake.write, &byte, 1)  // a full pipe already holds a wake-up
      return true
    }
    if !accepted { onEvent(.stopped) }
  }

  /// Ends every watch with ``Event/stopped`` and returns once the thread has ended. Calling it
  /// again does nothing more.
  public func stop() async {
    let first = state.withValue { state -> Bool in
      defer { state.stopped = true }
      return !state.stopped
    }
    guard first else { return }
    var byte: UInt8 = 0
    _ = write(wake.write, &byte, 1)
    await withBlockingWork("ReadinessWatch.stop") { [finished] in
      finished.wait()  // sync-wait: a queue of its own (withBlockingWork); the thread ends
    }
    SystemCall.close(wake.write)
  }

  deinit {
    // A watch dropped without `stop()` still ends its thread (its write end closes with it).
    let running = state.withValue { state -> Bool in
      defer { state.stopped = true }
      return !state.stopped
    }
    if running {
      var byte: UInt8 = 0
      _ = write(wake.write, &byte, 1)
      SystemCall.close(wake.write)
    }
  }

  private static func run(state: LockIsolated<State>, wake: Int32) {
    let clock = ContinuousClock()
    var watched: [Watched] = []
    while true {
      let (added, stopped) = state.withValue { state -> ([Watched], Bool) in
        defer { state.added = [] }
        return (state.added, state.stopped)
      }
      watched += added
      if stopped {
        for entry in watched { entry.onEvent(.stopped) }
        return
      }
      let now = clock.now
      let (due, waiting) = watched.partitioned { $0.deadline <= now }
      watched = waiting
      for entry in due { entry.onEvent(.deadlinePassed) }
      let timeout = watched.map(\.deadline).min().map { earliest in
        Int32(clamping: Int(((earliest - now) / .milliseconds(1)).rounded(.up)))
      }
      let ready = Set(
        SystemCall.waitReadable(
          [wake] + watched.map(\.connection.descriptor), timeoutMilliseconds: timeout ?? -1))
      if ready.contains(wake) { drain(wake) }
      let (readable, quiet) = watched.partitioned { ready.contains($0.connection.descriptor) }
      watched = quiet
      for entry in readable { entry.onEvent(.readable) }
    }
  }

  private static func drain(_ wake: Int32) {
    var bytes = [UInt8](repeating: 0, count: 256)
    // sync-wait: none — the pipe is non-blocking
    while bytes.withUnsafeMutableBytes({ read(wake, $0.baseAddress, $0.count) }) > 0 {}
  }
}

extension Array {
  /// The elements that satisfy `belongs`, and the others, each in their order. O(n).
  fileprivate func partitioned(by belongs: (Element) -> Bool) -> (Self, Self) {
    var matching: Self = []
    var others: Self = []
    for element in self {
      if belongs(element) { matching.append(element) } else { others.append(element) }
    }
    return (matching, others)
  }
}
