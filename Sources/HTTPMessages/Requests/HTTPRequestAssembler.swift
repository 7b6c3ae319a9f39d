import Foundation

/// Assembles HTTP/1.x requests from bytes as they arrive, without reading anything itself: the
/// part of request reading that blocking readers (``HTTPRequestReader``) and event-driven
/// servers (one thread watching many connections) share.
///
/// ```swift
/// var assembler = HTTPRequestAssembler(limits: limits)
/// assembler.append(bytesJustReceived)
/// switch try assembler.next() {
/// case .request(let request): answer(request)
/// case .continueExpected: send(HTTPRequestAssembler.continueAnswer)  // then read on
/// case .needMore: break  // wait for more bytes
/// }
/// ```
///
/// Empty lines before a request line are ignored (RFC 9112 §2.2). Bytes past one request (a
/// pipelined next one) stay buffered for the next call. Appending is amortized O(1) per byte;
/// `next()` scans each byte of a header section once however the bytes were split.
public struct HTTPRequestAssembler: Sendable {
  /// What the buffered bytes amount to.
  public enum Step: Sendable, Equatable {
    /// Not yet a whole request.
    case needMore
    /// The head asks for `100 Continue` before the client sends its body (once per request).
    case continueExpected
    /// A whole request, now taken out of the buffer.
    case request(HTTPIncomingRequest)
  }

  /// The interim answer to send on ``Step/continueExpected``.
  public static let continueAnswer = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  private let limits: HTTPRequestLimits
  private var buffer: [UInt8] = []
  /// How far the search for the head's end got (so a trickled head is scanned once).
  private var scanned = 0
  private var pendingHead: (head: HTTPRequestHead, bodyStart: Int)?
  private var continueAnswered = false

  public init(limits: HTTPRequestLimits) {
    self.limits = limits
  }

  /// Whether part of a request has arrived (empty lines before a request do not count): a
  /// connection with nothing buffered is idle between requests.
  public var isMidRequest: Bool { !buffer.isEmpty }

  /// The method and path (never the query) of the request being assembled, once its request
  /// line has arrived and reads as one: for logging a request that is refused. `nil` before.
  public var pendingRequestLine: (method: String, path: String)? {
    guard let end = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let parts = buffer[..<end].split(separator: UInt8(ascii: " "))
    guard parts.count >= 2, parts[0].count <= 32,
      parts[0].allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
      parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else { return nil }
    let target = String(decoding: parts[1].prefix(256), as: UTF8.self)
    let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    return (String(decoding: parts[0], as: UTF8.self), String(path))
  }

  /// Adds bytes that arrived.
  public mutating func append(_ bytes: some Collection<UInt8>) {
    if buffer.isEmpty {
      // Empty lines before a request line are ignored (RFC 9112 §2.2).
      let content = bytes.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
      buffer.append(contentsOf: content)
    } else {
      buffer.append(contentsOf: bytes)
    }
  }

  /// What the bytes so far amount to. Throws the rejection a request must be refused with
  /// (the connection is then unusable: close it after answering).
  public mutating func next() throws(HTTPRequestRejection) -> Step {
    if pendingHead == nil {
      guard let (headLength, bodyStart) = findHeadEnd() else {
        guard buffer.count <= limits.maxHeadBytes else {
          throw .headTooLarge(limit: limits.maxHeadBytes)
        }
        return .needMore
      }
      guard headLength <= limits.maxHeadBytes else {
        throw .headTooLarge(limit: limits.maxHeadBytes)
      }
      let head = try HTTPRequestHead.parse(buffer[0..<headLength], limits: limits)
      pendingHead = (head, bodyStart)
    }
    guard let (head, bodyStart) = pendingHead else { return .needMore }
    guard buffer.count - bodyStart >= head.contentLength else {
      // RFC 9110 §10.1.1: an HTTP/1.0 client's Expect is ignored.
      let expectsContinue =
        head.version == "HTTP/1.1" && head.headers["Expect"]?.lowercased() == "100-continue"
      guard expectsContinue, !continueAnswered else { return .needMore }
      continueAnswered = true
      return .continueExpected
    }
    let bodyEnd = bodyStart + head.contentLength
    let request = HTTPIncomingRequest(head: head, body: Data(buffer[bodyStart..<bodyEnd]))
    buffer.removeFirst(bodyEnd)
    buffer = Array(buffer.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") })
    scanned = 0
    pendingHead = nil
    continueAnswered = false
    return .request(request)
  }

  /// The peer closed its side: throws when that cut a request short.
  public func peerFinished() throws(HTTPRequestRejection) {
    guard buffer.isEmpty else { throw .malformed("the request ended early") }
  }

  /// Where the header section ends (before its blank line) and where the body starts; accepts
  /// CRLF and bare LF line ends.
  private mutating func findHeadEnd() -> (head: Int, body: Int)? {
    var index = max(0, scanned - 3)
    defer { scanned = buffer.count }
    while index < buffer.count {
      if buffer[index] == UInt8(ascii: "\n") {
        if index + 1 < buffer.count, buffer[index + 1] == UInt8(ascii: "\n") {
          return (index + 1, index + 2)
        }
        if index + 2 < buffer.count, buffer[index + 1] == UInt8(ascii: "\r"),
          buffer[index + 2] == UInt8(ascii: "\n")
        {
          return (index + 1, index + 3)
        }
      }
      index += 1
    }
    return nil
  }
}
