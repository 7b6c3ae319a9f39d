#if os(Linux)
  import ComposableCore
  import Foundation
  import Glibc
  import HTTPTestSupport
  import Testing

  @testable import LoopbackSockets

  /// The listener's queue of connections waiting for `accept`: a burst of clients is queued by
  /// the kernel while the accept thread is busy, not dropped (a dropped handshake is retried by
  /// the client's kernel a second or more later, which made 3,000 connecting clients take 11 s).
  @Suite("The listener's queue of waiting connections")
  struct ListenerQueueTests {
    /// More than the 128 the listener used to ask for; at most what Linux allows by default.
    private static let burst = 300

    @Test("A burst of 300 clients connects at once while the accept thread is busy")
    func aBurstConnectsWhileTheAcceptThreadIsBusy() async throws {
      let systemCap = try Self.systemQueueCap()
      try #require(
        systemCap > Self.burst,
        "net.core.somaxconn is \(systemCap): this machine queues fewer than \(Self.burst)")
      let holdAcceptThread = DispatchSemaphore(value: 0)
      let accepted = LockIsolated<[LoopbackConnection]>([])
      let listener = try LoopbackListener { connection in
        let isFirst = accepted.withValue { accepted -> Bool in
          accepted.append(connection)
          return accepted.count == 1
        }
        // sync-wait: the accept thread, held by the test until the burst has connected
        if isFirst { holdAcceptThread.wait() }
      }
      let port = listener.port
      let first = try await onThread { try LoopbackConnection.connect(toLoopbackPort: port) }
      try await within(10, "the first connection to be accepted") {
        while accepted.current.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
      }

      let burst = try await onThread { Self.connectBurst(Self.burst, port: port) }
      holdAcceptThread.signal()

      #expect(
        burst.count == Self.burst,
        "only \(burst.count) of \(Self.burst) clients connected within 2 s each while the accept thread was busy"
      )
      try await within(10, "the burst to be accepted once the accept thread is free") {
        while accepted.current.count < burst.count + 1 {
          try await Task.sleep(for: .milliseconds(5))
        }
      }
      for descriptor in burst { close(descriptor) }
      first.close()
      for connection in accepted.current { connection.close() }
      await listener.stop()
    }

    /// Connects up to `count` clients, each given 2 s to complete its handshake; stops at the
    /// first that cannot (its handshake was dropped). Returns the connected descriptors.
    private static func connectBurst(_ count: Int, port: UInt16) -> [Int32] {
      var connected: [Int32] = []
      for _ in 0..<count {
        guard let descriptor = connect(port: port, within: 2000) else { break }
        connected.append(descriptor)
      }
      return connected
    }

    /// A non-blocking connect to 127.0.0.1:`port`, waited for at most `milliseconds`.
    private static func connect(port: UInt16, within milliseconds: Int32) -> Int32? {
      let descriptor = SystemCall.makeStreamSocket()
      guard descriptor >= 0 else { return nil }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      var address = LoopbackAddress.make(port: port)
      let started = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      var failure: Int32 = started == 0 ? 0 : errno
      if failure == EINPROGRESS {
        var watched = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        if poll(&watched, 1, milliseconds) == 1 {
          var socketError: Int32 = 0
          var length = socklen_t(MemoryLayout<Int32>.size)
          let read = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length)
          failure = read == 0 ? socketError : errno
        } else {
          failure = ETIMEDOUT
        }
      }
      guard failure == 0 else {
        close(descriptor)
        return nil
      }
      return descriptor
    }

    /// The kernel's cap on a listener's queue (`net.core.somaxconn`).
    private static func systemQueueCap() throws -> Int {
      let text = try String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)
      return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
  }
#endif
