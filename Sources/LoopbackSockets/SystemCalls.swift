#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin, platform-neutral wrappers over the POSIX calls the loopback sockets use, so the socket
/// types read the same on Linux and Apple platforms (and so their methods may be called
/// `close` without shadowing the system call).
enum SystemCall {
  /// The current `errno` as a readable message, e.g. "Connection reset by peer (104)".
  static func describeErrno(_ code: Int32 = errno) -> String {
    "\(String(cString: strerror(code))) (\(code))"
  }

  static func close(_ descriptor: Int32) {
    _ = closeDescriptor(descriptor)
  }

  static func makeStreamSocket() -> Int32 {
    #if canImport(Darwin)
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
      if descriptor >= 0 {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        _ = setsockopt(
          descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
      }
    #else
      let descriptor = socket(
        AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    return descriptor
  }

  /// Marks `descriptor` close-on-exec (so a spawned child never inherits a socket) and, on
  /// Apple platforms, free of SIGPIPE.
  static func prepareAccepted(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    #if canImport(Darwin)
      var on: Int32 = 1
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Flags for `send`: never raise SIGPIPE on a closed peer (Apple sockets use SO_NOSIGPIPE).
  static var sendFlags: Int32 {
    #if canImport(Darwin)
      0
    #else
      Int32(MSG_NOSIGNAL)
    #endif
  }

  static func setTimeout(_ descriptor: Int32, option: Int32, milliseconds: Int) {
    var value = timeval(
      tv_sec: .init(milliseconds / 1000), tv_usec: .init((milliseconds % 1000) * 1000))
    _ = setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Whether `descriptor`'s connection is over now: reset or failed. A reset after the peer's
  /// orderly end shows only here: `recv` then still reads the end of the stream, not the error.
  ///
  /// Linux sets `POLLHUP` only when both directions are shut, which (as this side has not shut
  /// its own) means a reset; Darwin also sets it when the peer merely half-closed, so there a
  /// pending socket error (`SO_ERROR`) decides.
  static func isHungUp(_ descriptor: Int32) -> Bool {
    var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    // sync-wait: none — a zero timeout
    guard poll(&fd, 1, 0) > 0 else { return false }
    if fd.revents & Int16(POLLERR) != 0 { return true }
    guard fd.revents & Int16(POLLHUP) != 0 else { return false }
    #if canImport(Darwin)
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      return getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error != 0
    #else
      return true
    #endif
  }

  /// A pipe whose write end wakes a thread waiting in ``waitReadable(_:timeoutMilliseconds:)``
  /// on its read end. Both ends close on exec and never block.
  static func makeWakePipe() throws(LoopbackSocketError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw .fromErrno("pipe") }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    return (ends[0], ends[1])
  }

  /// Waits until one of `descriptors` is readable (or hung up); answers the readable ones.
  /// `timeoutMilliseconds` < 0 waits indefinitely.
  static func waitReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> [Int32] {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let count = fds.withUnsafeMutableBufferPointer { buffer in
      // sync-wait: the caller's thread: the accept thread, the readiness watch's thread and
      // the connection threads
      poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
    }
    guard count > 0 else { return [] }
    return fds.filter { $0.revents != 0 }.map(\.fd)
  }
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
