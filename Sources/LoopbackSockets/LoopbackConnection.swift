import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a loopback socket operation failed.
public enum LoopbackSocketError: Error, Equatable, CustomStringConvertible {
  /// A system call failed; `message` is the system's text and errno.
  case system(operation: String, message: String)
  /// A receive or send did not complete within the socket's timeout.
  case timedOut(operation: String)

  public var description: String {
    switch self {
    case .system(let operation, let message): "\(operation) failed: \(message)"
    case .timedOut(let operation): "\(operation) timed out"
    }
  }

  static func fromErrno(_ operation: String) -> Self {
    let code = errno
    if code == EAGAIN || code == EWOULDBLOCK { return .timedOut(operation: operation) }
    return .system(operation: operation, message: SystemCall.describeErrno(code))
  }
}

/// One accepted (or connected) TCP connection on 127.0.0.1, with blocking I/O bounded by
/// socket timeouts. One thread owns it and closes it; any thread may `shutDown()` it to wake
/// that owner.
public final class LoopbackConnection: @unchecked Sendable {
  let descriptor: Int32
  private let lock = NSLock()
  private var isClosed = false

  public init(adopting descriptor: Int32) {
    self.descriptor = descriptor
    SystemCall.prepareAccepted(descriptor)
  }

  /// Connects to `127.0.0.1:port` (for tests that speak raw bytes to a server).
  public static func connect(toLoopbackPort port: UInt16) throws(LoopbackSocketError)
    -> LoopbackConnection
  {
    let descriptor = SystemCall.makeStreamSocket()
    guard descriptor >= 0 else { throw .fromErrno("socket") }
    var address = LoopbackAddress.make(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let error = LoopbackSocketError.fromErrno("connect")
      SystemCall.close(descriptor)
      throw error
    }
    return LoopbackConnection(adopting: descriptor)
  }

  /// Bounds every later `receive` (a stalled peer then gives `.timedOut`).
  public func setReceiveTimeout(milliseconds: Int) {
    SystemCall.setTimeout(descriptor, option: SO_RCVTIMEO, milliseconds: milliseconds)
  }

  /// Bounds every later `send` (a peer that stopped reading then gives `.timedOut`).
  public func setSendTimeout(milliseconds: Int) {
    SystemCall.setTimeout(descriptor, option: SO_SNDTIMEO, milliseconds: milliseconds)
  }

  /// Reads what is available, at most `maximum` bytes; an empty answer means the peer closed.
  ///
  /// Blocks the calling thread until bytes arrive (or the receive timeout passes): call it
  /// from a thread of your own (as the server answers each request on one) or inside
  /// `withBlockingWork` — never directly from a task.
  public func receive(upTo maximum: Int) throws(LoopbackSocketError) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: maximum)
    while true {
      // sync-wait: the caller's own thread — documented: never a task's
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
      if count >= 0 { return Array(buffer[0..<count]) }
      if errno == EINTR { continue }
      throw .fromErrno("receive")
    }
  }

  /// Writes all of `bytes`, or throws. Blocks the calling thread while the peer's window is
  /// full (up to the send timeout), as ``receive(upTo:)`` does.
  public func send(_ bytes: some DataProtocol) throws(LoopbackSocketError) {
    let contiguous = Array(bytes)
    var offset = 0
    while offset < contiguous.count {
      let count = contiguous.withUnsafeBytes {
        systemSend(descriptor, $0.baseAddress?.advanced(by: offset), $0.count - offset)
      }
      if count > 0 {
        offset += count
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        throw .fromErrno("send")
      }
    }
  }

  /// Reads what has arrived, at most `maximum` bytes, without waiting: `nil` when nothing has,
  /// an empty array when the peer finished sending (closed, or half-closed).
  public func receiveWithoutWaiting(upTo maximum: Int) throws(LoopbackSocketError) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: maximum)
    while true {
      // sync-wait: none — MSG_DONTWAIT
      let count = buffer.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, maximum, Int32(MSG_DONTWAIT))
      }
      if count >= 0 { return Array(buffer[0..<count]) }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
      throw .fromErrno("receive")
    }
  }

  /// Writes as much of `bytes` as the socket takes at once; answers whether that was all. For
  /// short answers to a fresh request (a refusal, `100 Continue`), which fit unless the peer
  /// stopped reading: a `false` then means the connection is not worth keeping.
  public func sendWithoutWaiting(_ bytes: [UInt8]) -> Bool {
    while true {
      let count = bytes.withUnsafeBytes {
        systemSend(descriptor, $0.baseAddress, $0.count, extraFlags: Int32(MSG_DONTWAIT))
      }
      // A signal that arrived before anything was sent is no reason to give up the peer.
      if count < 0, errno == EINTR { continue }
      return count == bytes.count
    }
  }

  /// Waits up to `milliseconds` for the peer to send, finish, or fail; answers whether it did.
  /// Blocks the calling thread, as ``receive(upTo:)`` does.
  public func waitUntilReadable(milliseconds: Int32) -> Bool {
    !SystemCall.waitReadable([descriptor], timeoutMilliseconds: milliseconds).isEmpty
  }

  /// What the peer did since the last look, without waiting.
  public enum PeerState: Equatable {
    /// Nothing: the connection is open and quiet.
    case open
    /// The peer finished sending: it half-closed (and still reads), or it closed — which of
    /// the two only shows once something is written to it (a closed peer answers with a reset).
    case finishedSending
    /// The peer reset the connection (or it failed).
    case hungUp
    /// The peer sent bytes (left unread unless `discardingInput`).
    case sentData
  }

  /// Whether the peer has finished, reset, or written to the connection. With
  /// `discardingInput`, bytes it sent are read and dropped (a streaming response expects none).
  public func peerState(discardingInput: Bool) -> PeerState {
    guard waitUntilReadable(milliseconds: 0) else { return .open }
    if SystemCall.isHungUp(descriptor) { return .hungUp }
    var scratch = [UInt8](repeating: 0, count: 512)
    let flags = Int32(MSG_DONTWAIT) | (discardingInput ? 0 : Int32(MSG_PEEK))
    // sync-wait: none — MSG_DONTWAIT, and poll said the descriptor is readable
    let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
    if count == 0 { return .finishedSending }
    if count < 0 {
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .open : .hungUp
    }
    return .sentData
  }

  /// Ends this side's sending (a half-close): the peer reads the end of the stream, and may
  /// still answer.
  public func finishSending() {
    lock.lock()
    defer { lock.unlock() }
    if !isClosed { _ = shutdown(descriptor, Int32(SHUT_WR)) }
  }

  /// Ends both directions so a thread blocked on this connection wakes up; safe from any thread.
  public func shutDown() {
    lock.lock()
    defer { lock.unlock() }
    if !isClosed { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
  }

  /// Closes the connection with a reset (RST) instead of an orderly close: the peer sees
  /// "connection reset by peer". For fault injection.
  public func reset() {
    var linger = makeLinger(onoff: 1, seconds: 0)
    _ = setsockopt(
      descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout.size(ofValue: linger)))
    close()
  }

  /// Closes the descriptor (once; later calls do nothing).
  public func close() {
    lock.lock()
    defer { lock.unlock() }
    guard !isClosed else { return }
    isClosed = true
    SystemCall.close(descriptor)
  }

  deinit {
    if !isClosed { SystemCall.close(descriptor) }
  }
}

/// The IPv4 loopback address, 127.0.0.1, at a port.
enum LoopbackAddress {
  static func make(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}

// The system functions under names that methods of the same name cannot shadow.
private func systemConnect(
  _ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int32 {
  connect(descriptor, address, length)
}

private func systemSend(
  _ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, extraFlags: Int32 = 0
) -> Int {
  // sync-wait: as `receive`, documented (none with MSG_DONTWAIT)
  send(descriptor, bytes, count, SystemCall.sendFlags | extraFlags)
}

private func makeLinger(onoff: Int32, seconds: Int32) -> linger {
  linger(l_onoff: onoff, l_linger: seconds)
}
