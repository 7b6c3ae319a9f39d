import Foundation
import LoopbackSockets

/// One request read off a connection: its validated head and its whole body.
public struct HTTPIncomingRequest: Sendable, Equatable {
  public var head: HTTPRequestHead
  public var body: Data

  public init(head: HTTPRequestHead, body: Data) {
    self.head = head
    self.body = body
  }
}

/// Reads HTTP/1.x requests, one after another, from a loopback connection, within limits,
/// blocking the calling thread (an ``HTTPRequestAssembler`` fed by blocking receives).
///
/// Bytes that arrive after one request (a pipelined next request) are kept for the next call.
public struct HTTPRequestReader {
  private let connection: LoopbackConnection
  private var assembler: HTTPRequestAssembler
  private static let chunkSize = 16 * 1024

  public init(connection: LoopbackConnection, limits: HTTPRequestLimits) {
    self.connection = connection
    self.assembler = HTTPRequestAssembler(limits: limits)
  }

  /// The next request, or `nil` when the peer closed (or went quiet past the receive timeout)
  /// between requests. Throws ``HTTPRequestRejection`` for a request that must be refused with
  /// its status, and `LoopbackSocketError` when the connection failed mid-request.
  public mutating func next() throws -> HTTPIncomingRequest? {
    while true {
      switch try assembler.next() {
      case .request(let request):
        return request
      case .continueExpected:
        try connection.send(HTTPRequestAssembler.continueAnswer)
        continue
      case .needMore:
        break
      }
      let received = Result { () throws(LoopbackSocketError) in
        try connection.receive(upTo: Self.chunkSize)
      }
      let chunk: [UInt8]
      switch received {
      case .success(let bytes): chunk = bytes
      case .failure(.timedOut) where assembler.isMidRequest: throw HTTPRequestRejection.timedOut
      case .failure(.timedOut): return nil
      case .failure(let error): throw error
      }
      guard !chunk.isEmpty else {
        try assembler.peerFinished()
        return nil
      }
      assembler.append(chunk)
    }
  }
}
