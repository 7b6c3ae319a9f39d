import ComposableCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP listener on 127.0.0.1 that accepts on a thread of its own and hands each connection
/// to `onConnection` on that thread, which must return promptly: start a thread for blocking
/// work (blocking socket I/O never runs on the Swift concurrency pool), or hand the connection
/// to a ``ReadinessWatch``. Port 0 asks the kernel for a free port; ``port`` tells which one it
/// gave.
public final class LoopbackListener: Sendable {
  /// The port the listener is bound to.
  public let port: UInt16
  private let descriptor: Int32
  private let wake: (read: Int32, write: Int32)
  private let finished = DispatchSemaphore(value: 0)
  private let stopping = LockIsolated(false)

  /// Binds 127.0.0.1:`port` and starts accepting; `onConnection` runs on the accept thread.
  public init(
    port: UInt16 = 0,
    onConnection: @escaping @Sendable (LoopbackConnection) -> Void
  ) throws(LoopbackSocketError) {
    let descriptor = SystemCall.makeStreamSocket()
    guard descriptor >= 0 else { throw .fromErrno("socket") }
    do {
      self.port = try Self.bindAndListen(descriptor, port: port)
      self.wake = try SystemCall.makeWakePipe()
    } catch {
      SystemCall.close(descriptor)
      throw error
    }
    self.descriptor = descriptor
    let thread = Thread { [descriptor, wake, finished] in
      Self.acceptLoop(descriptor, wake: wake.read, onConnection: onConnection)
      SystemCall.close(descriptor)
      SystemCall.close(wake.read)
      finished.signal()
    }
    thread.name = "LoopbackListener:\(self.port)"
    thread.start()
  }

  /// Stops accepting and closes the listening socket; returns once the accept thread ended.
  /// Connections already handed out are their owners' to end. Calling it again does nothing.
  public func stop() async {
    let first = stopping.withValue { stopping -> Bool in
      defer { stopping = true }
      return !stopping
    }
    guard first else { return }
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    SystemCall.close(wake.write)
    await withBlockingWork("LoopbackListener.stop") { [finished] in
      finished.wait()  // sync-wait: a queue of its own (withBlockingWork)
    }
  }

  deinit {
    // A listener dropped without `stop()` still ends its accept thread.
    if !stopping.current {
      var byte: UInt8 = 1
      _ = write(wake.write, &byte, 1)
      SystemCall.close(wake.write)
    }
  }

  private static func bindAndListen(_ descriptor: Int32, port: UInt16) throws(LoopbackSocketError)
    -> UInt16
  {
    var on: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = LoopbackAddress.make(port: port)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw .fromErrno("bind 127.0.0.1:\(port)") }
    // The system's largest queue of connections waiting for `accept` (4,096 on Linux 5.4 and
    // later): a burst of clients beyond the queue would have their handshakes dropped and
    // retried by their kernels a second or more later (3,000 clients connecting at once took
    // 11 s with a queue of 128).
    guard listen(descriptor, SOMAXCONN) == 0 else { throw .fromErrno("listen") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    guard named == 0 else { throw .fromErrno("getsockname") }
    return UInt16(bigEndian: address.sin_port)
  }

  private static func acceptLoop(
    _ descriptor: Int32, wake: Int32,
    onConnection: @escaping @Sendable (LoopbackConnection) -> Void
  ) {
    while true {
      let ready = SystemCall.waitReadable([descriptor, wake], timeoutMilliseconds: -1)
      if ready.contains(wake) { return }
      guard ready.contains(descriptor) else { continue }
      let accepted = accept(descriptor, nil, nil)  // sync-wait: the accept thread; ready
      guard accepted >= 0 else {
        // A connection that vanished before accept (ECONNABORTED), a signal, or a full
        // descriptor table: keep serving the others.
        // sync-wait: the accept thread, backing off while descriptors are exhausted
        if errno == EMFILE || errno == ENFILE { usleep(10_000) }
        continue
      }
      onConnection(LoopbackConnection(adopting: accepted))
    }
  }
}
