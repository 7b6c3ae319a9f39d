import Foundation
import LoopbackSockets

/// One request read off a connection: its validated head and its whole body.
public struct HTTPIncomingRequest: Sendable {
  public var head: HTTPRequestHead
  public var body: Data
}

/// Reads HTTP/1.x requests, one after another, from a loopback connection, within limits.
///
/// Bytes that arrive after one request (a pipelined next request) are kept for the next call.
public struct HTTPRequestReader {
  private let connection: LoopbackConnection
  private let limits: HTTPRequestLimits
  private var buffer: [UInt8] = []
  private static let chunkSize = 16 * 1024

  public init(connection: LoopbackConnection, limits: HTTPRequestLimits) {
    self.connection = connection
    self.limits = limits
  }

  /// The next request, or `nil` when the peer closed (or went quiet past the receive timeout)
  /// between requests. Throws ``HTTPRequestRejection`` for a request that must be refused with
  /// its status, and `LoopbackSocketError` when the connection failed mid-request.
  public mutating func next() throws -> HTTPIncomingRequest? {
    var scanned = 0
    var headEnd: (head: Int, body: Int)?
    while true {
      headEnd = Self.findHeadEnd(in: buffer, from: max(0, scanned - 3))
      if headEnd != nil { break }
      scanned = buffer.count
      guard buffer.count <= limits.maxHeadBytes else {
        throw HTTPRequestRejection.headTooLarge(limit: limits.maxHeadBytes)
      }
      let chunk: [UInt8]
      do {
        chunk = try connection.receive(upTo: Self.chunkSize)
      } catch .timedOut(_) where buffer.isEmpty {
        return nil
      } catch .timedOut(_) {
        throw HTTPRequestRejection.timedOut
      }
      if chunk.isEmpty {
        guard buffer.isEmpty else {
          throw HTTPRequestRejection.malformed("the request ended early")
        }
        return nil
      }
      buffer.append(contentsOf: chunk)
    }
    guard let (headLength, bodyStart) = headEnd else { return nil }
    guard headLength <= limits.maxHeadBytes else {
      throw HTTPRequestRejection.headTooLarge(limit: limits.maxHeadBytes)
    }
    let head = try HTTPRequestHead.parse(buffer[0..<headLength], limits: limits)
    buffer.removeFirst(bodyStart)
    if head.contentLength > buffer.count,
      head.headers["Expect"]?.lowercased() == "100-continue"
    {
      try connection.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }
    while buffer.count < head.contentLength {
      let chunk: [UInt8]
      do {
        chunk = try connection.receive(upTo: Self.chunkSize)
      } catch .timedOut(_) {
        throw HTTPRequestRejection.timedOut
      }
      guard !chunk.isEmpty else { throw HTTPRequestRejection.malformed("the body ended early") }
      buffer.append(contentsOf: chunk)
    }
    let body = Data(buffer[0..<head.contentLength])
    buffer.removeFirst(head.contentLength)
    return HTTPIncomingRequest(head: head, body: body)
  }

  /// Where the header section ends (before its blank line) and where the body starts; accepts
  /// CRLF and bare LF line ends.
  private static func findHeadEnd(in bytes: [UInt8], from start: Int) -> (head: Int, body: Int)? {
    var index = start
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") {
        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
          return (index + 1, index + 2)
        }
        if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"),
          bytes[index + 2] == UInt8(ascii: "\n")
        {
          return (index + 1, index + 3)
        }
      }
      index += 1
    }
    return nil
  }
}
