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

  /// Whether `descriptor`'s connection is over now: reset, failed, or closed both ways (`poll`
  /// says `POLLHUP`/`POLLERR`). A reset after the peer's orderly end shows only here: `recv`
  /// then still reads the end of the stream, not the error.
  static func isHungUp(_ descriptor: Int32) -> Bool {
    var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    // sync-wait: none — a zero timeout
    guard poll(&fd, 1, 0) > 0 else { return false }
    return fd.revents & Int16(POLLHUP | POLLERR) != 0
  }

  /// Waits until one of `descriptors` is readable (or hung up); answers the readable ones.
  /// `timeoutMilliseconds` < 0 waits indefinitely.
  static func waitReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> [Int32] {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let count = fds.withUnsafeMutableBufferPointer { buffer in
      // sync-wait: the caller's thread: the accept thread and the connection threads
      poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
    }
    guard count > 0 else { return [] }
    return fds.filter { $0.revents != 0 }.map(\.fd)
  }
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
