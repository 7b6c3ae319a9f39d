import Foundation

/// A loopback port where every connection is refused, for as long as this value lives.
///
/// A port found free and then closed can be handed by the kernel to the next listener of
/// another test running in parallel, which then answers what was meant to be refused. This
/// one stays bound (without listening, and without `SO_REUSEADDR`, so no other socket can
/// bind it): a connection to it is refused at once, and nobody else can take the port until
/// the value is released. Making one for a given port also tells whether that port is free.
///
/// ```swift
/// let refusing = try RefusingLoopbackPort()
/// let base = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
/// // … requests to `base` fail with "connection refused" …
/// withExtendedLifetime(refusing) {}
/// ```
public final class RefusingLoopbackPort: Sendable {
  /// The bound port.
  public let port: UInt16
  private let socket: Int32

  /// Binds 127.0.0.1:`port` (by default a free port the kernel picks); throws `EADDRINUSE`
  /// when any socket is bound to that port.
  public init(port: UInt16 = 0) throws {
    #if canImport(Glibc)
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    // Only a bound socket has a port to read back.
    let named =
      bound == 0
      && withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
      } == 0
    guard named else {
      close(socket)
      throw POSIXError(.EADDRINUSE)
    }
    self.socket = socket
    self.port = UInt16(bigEndian: address.sin_port)
  }

  deinit {
    close(socket)
  }
}
