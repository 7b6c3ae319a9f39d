/// Limits a loopback server applies to every request it reads.
public struct HTTPRequestLimits: Sendable, Equatable {
  /// The request line and all header lines together, in bytes.
  public var maxHeadBytes: Int
  /// How many header fields a request may have.
  public var maxHeaderCount: Int
  /// The largest body accepted (by its `Content-Length`).
  public var maxBodyBytes: Int

  public init(maxHeadBytes: Int, maxHeaderCount: Int, maxBodyBytes: Int) {
    self.maxHeadBytes = maxHeadBytes
    self.maxHeaderCount = maxHeaderCount
    self.maxBodyBytes = maxBodyBytes
  }
}

/// Why a request was refused before it reached a handler, and the status that says so.
public enum HTTPRequestRejection: Error, Equatable, CustomStringConvertible {
  case malformed(String)
  case headTooLarge(limit: Int)
  case tooManyHeaders(limit: Int)
  case bodyTooLarge(limit: Int)
  case unsupportedTransferCoding
  case unsupportedVersion
  case timedOut

  /// The response status: 400, 431, 413, 501, 505 or 408.
  public var status: Int {
    switch self {
    case .malformed: 400
    case .headTooLarge, .tooManyHeaders: 431
    case .bodyTooLarge: 413
    case .unsupportedTransferCoding: 501
    case .unsupportedVersion: 505
    case .timedOut: 408
    }
  }

  public var description: String {
    switch self {
    case .malformed(let reason): "Malformed request: \(reason)."
    case .headTooLarge(let limit): "The request's header section exceeds \(limit) bytes."
    case .tooManyHeaders(let limit): "The request has more than \(limit) header fields."
    case .bodyTooLarge(let limit): "The request body exceeds \(limit) bytes."
    case .unsupportedTransferCoding: "Transfer-Encoding is not supported; send Content-Length."
    case .unsupportedVersion: "Only HTTP/1.0 and HTTP/1.1 are supported."
    case .timedOut: "The request did not arrive in time."
    }
  }
}

/// The request line and header fields of one HTTP/1.x request, validated.
public struct HTTPRequestHead: Sendable, Equatable {
  public var method: HTTPMethod
  /// The origin-form target: path and optional query, exactly as sent.
  public var target: String
  /// `HTTP/1.0` or `HTTP/1.1`.
  public var version: String
  public var headers: HTTPHeaders
  /// The body's length from `Content-Length` (0 when absent).
  public var contentLength: Int

  /// Whether the client asked to keep the connection open after this exchange.
  public var keepsAlive: Bool {
    let connection = headers["Connection"]?.lowercased() ?? ""
    return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
  }

  /// Parses `bytes`: everything before the blank line that ends the header section.
  public static func parse(_ bytes: ArraySlice<UInt8>, limits: HTTPRequestLimits)
    throws(HTTPRequestRejection) -> HTTPRequestHead
  {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else { throw .malformed("no request line") }
    let headerLines = lines.dropFirst()
    guard headerLines.count <= limits.maxHeaderCount else {
      throw .tooManyHeaders(limit: limits.maxHeaderCount)
    }
    var head = try parseRequestLine(requestLine)
    for line in headerLines {
      let (name, value) = try parseHeaderLine(line)
      head.headers.add(name, value)
    }
    // RFC 9112 §3.2: no Host in an HTTP/1.1 request, or more than one in any request, is 400.
    let hosts = head.headers.values(for: "Host")
    if head.version == "HTTP/1.1" && hosts.isEmpty {
      throw .malformed("an HTTP/1.1 request needs a Host header")
    }
    if hosts.count > 1 { throw .malformed("more than one Host header") }
    if head.headers.contains("Transfer-Encoding") { throw .unsupportedTransferCoding }
    head.contentLength = try contentLength(of: head.headers, limits: limits)
    return head
  }

  private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestRejection)
    -> HTTPRequestHead
  {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw .malformed("the request line is not METHOD TARGET VERSION")
    }
    guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
      throw .malformed("the method is not a token")
    }
    guard parts[1].first == UInt8(ascii: "/"), parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else {
      throw .malformed("the target is not an absolute path")
    }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version.hasPrefix("HTTP/") else { throw .malformed("no HTTP version") }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .unsupportedVersion }
    return HTTPRequestHead(
      method: HTTPMethod(rawValue: String(decoding: parts[0], as: UTF8.self)),
      target: String(decoding: parts[1], as: UTF8.self),
      version: version, headers: HTTPHeaders(), contentLength: 0)
  }

  private static func parseHeaderLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestRejection)
    -> (String, String)
  {
    guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
      throw .malformed("a folded or empty header line")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw .malformed("a header line without a colon")
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
      throw .malformed("a header name that is not a token")
    }
    let value = line[line.index(after: colon)...]
    guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
      throw .malformed("a control character in a header value")
    }
    let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }
    let end = trimmed.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { trimmed.index(after: $0) }
    return (
      String(decoding: name, as: UTF8.self),
      String(decoding: trimmed[trimmed.startIndex..<(end ?? trimmed.startIndex)], as: UTF8.self)
    )
  }

  private static func contentLength(of headers: HTTPHeaders, limits: HTTPRequestLimits)
    throws(HTTPRequestRejection) -> Int
  {
    let values = Set(headers.values(for: "Content-Length"))
    guard let value = values.first else { return 0 }
    guard values.count == 1, !value.isEmpty, value.count <= 18,
      value.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(value)
    else {
      throw .malformed("an invalid Content-Length")
    }
    guard length <= limits.maxBodyBytes else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
    return length
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
