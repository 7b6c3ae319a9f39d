import Foundation

/// Parses a `text/event-stream` (WHATWG HTML, "Server-sent events", §9.2.6) incrementally:
/// feed it bytes as they arrive, in chunks of any size, and take the events it dispatches.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// let events = try parser.push(Data("id: 7\nevent: merged\ndata: P1\n\n".utf8))
/// events      // [ServerSentEvent(type: "merged", data: "P1", id: "7")]
/// parser.lastEventID  // "7": what a reconnection sends as Last-Event-ID
/// ```
///
/// Lines end with CRLF, LF or CR (a CRLF split across two chunks counts once); a leading BOM
/// is skipped; comments (`:`), unknown fields and an `id` containing NUL are ignored;
/// `data` lines join with line feeds; `retry` sets ``reconnectionTime``. An event still
/// incomplete when the stream ends is discarded, and its `id` never takes effect, so a
/// reconnection resumes right after the last event dispatched. A line longer than
/// ``Limits/maxLineBytes`` or an event larger than ``Limits/maxEventBytes`` is an error, and
/// the parser never holds more than that.
public struct ServerSentEventParser: Sendable {
  /// Bounds on what one hostile stream can make the parser hold.
  public struct Limits: Sendable, Hashable {
    /// Bytes in one line (default 1 MiB).
    public var maxLineBytes: Int
    /// Bytes of data in one event (default 4 MiB).
    public var maxEventBytes: Int

    public init(maxLineBytes: Int = 1 << 20, maxEventBytes: Int = 4 << 20) {
      self.maxLineBytes = maxLineBytes
      self.maxEventBytes = maxEventBytes
    }
  }

  public let limits: Limits
  /// The ID of the last dispatched event (or set by an `id` before a dispatch); `nil` when
  /// none, or when the server reset it with an empty `id`.
  public var lastEventID: String? { committedID.isEmpty ? nil : committedID }
  /// The reconnection time the server asked for with `retry:`, if it did.
  public private(set) var reconnectionTime: Duration?

  private var committedID: String
  private var pendingID: String
  private var line: [UInt8] = []
  private var data: [UInt8] = []
  private var eventType = ""
  private var lastByteWasCR = false
  /// Bytes of a possible BOM at the very start of the stream; `nil` once past it.
  private var streamStart: [UInt8]? = []

  private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
  private static let lineFeed = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  /// A parser for a new connection; `lastEventID` carries over from the previous one.
  public init(lastEventID: String? = nil, limits: Limits = Limits()) {
    self.limits = limits
    self.committedID = lastEventID ?? ""
    self.pendingID = lastEventID ?? ""
  }

  /// Consumes `bytes` and answers the events they completed, in order.
  public mutating func push(_ bytes: some Collection<UInt8>) throws(EventStreamError)
    -> [ServerSentEvent]
  {
    var events: [ServerSentEvent] = []
    var rest = Array(bytes)[...]
    if var start = streamStart {
      while let byte = rest.first, start.count < 3, byte == Self.bom[start.count] {
        start.append(byte)
        rest = rest.dropFirst()
      }
      if start.count == 3 || (!rest.isEmpty) {
        streamStart = nil
        if start.count < 3 { rest = (start + rest)[...] }
      } else {
        streamStart = start
        return []
      }
    }
    while !rest.isEmpty {
      if lastByteWasCR {
        lastByteWasCR = false
        if rest.first == Self.lineFeed {
          rest = rest.dropFirst()
          continue
        }
      }
      guard let end = rest.firstIndex(where: { $0 == Self.lineFeed || $0 == Self.carriageReturn })
      else {
        try appendToLine(rest)
        break
      }
      try appendToLine(rest[..<end])
      lastByteWasCR = rest[end] == Self.carriageReturn
      rest = rest[rest.index(after: end)...]
      if let event = try processLine() { events.append(event) }
    }
    return events
  }

  private mutating func appendToLine(_ bytes: ArraySlice<UInt8>) throws(EventStreamError) {
    guard line.count + bytes.count <= limits.maxLineBytes else {
      line = []
      throw .lineTooLong(limit: limits.maxLineBytes)
    }
    line.append(contentsOf: bytes)
  }

  private mutating func processLine() throws(EventStreamError) -> ServerSentEvent? {
    defer { line.removeAll(keepingCapacity: true) }
    guard !line.isEmpty else { return dispatch() }
    guard line[0] != UInt8(ascii: ":") else { return nil }
    let colon = line.firstIndex(of: UInt8(ascii: ":"))
    let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
    var value = colon.map { line[line.index(after: $0)...] } ?? []
    if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
    switch field {
    case "event":
      eventType = String(decoding: value, as: UTF8.self)
    case "data":
      guard data.count + value.count + 1 <= limits.maxEventBytes else {
        data = []
        throw .eventTooLarge(limit: limits.maxEventBytes)
      }
      data.append(contentsOf: value)
      data.append(Self.lineFeed)
    case "id":
      if !value.contains(0) { pendingID = String(decoding: value, as: UTF8.self) }
    case "retry":
      if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
        // Digits only: the one failure is a number too large, which saturates (never
        // truncated to its first digits); the backoff clamps it to its maximum.
        let milliseconds = Int64(String(decoding: value, as: UTF8.self)) ?? .max
        reconnectionTime = .milliseconds(milliseconds)
      }
    default:
      break
    }
    return nil
  }

  private mutating func dispatch() -> ServerSentEvent? {
    committedID = pendingID
    defer {
      data.removeAll(keepingCapacity: true)
      eventType = ""
    }
    guard !data.isEmpty else { return nil }
    return ServerSentEvent(
      type: eventType.isEmpty ? "message" : eventType,
      data: String(decoding: data.dropLast(), as: UTF8.self), id: lastEventID)
  }
}

/// Why an event stream ended with an error.
public enum EventStreamError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A line exceeded the limit: a broken or hostile server. The stream is not reconnected.
  case lineTooLong(limit: Int)
  /// One event's data exceeded the limit. The stream is not reconnected.
  case eventTooLarge(limit: Int)
  /// The server answered with something other than an event stream.
  case notAnEventStream(request: String, status: Int, contentType: String?)
  /// Reconnecting failed this many times in a row (see
  /// ``EventStreamOptions/maxReconnectAttempts``).
  case gaveUp(request: String, failures: Int, lastFailure: String)

  public var description: String {
    switch self {
    case .lineTooLong(let limit):
      "The event stream sent a line longer than \(limit) bytes; it was closed."
    case .eventTooLarge(let limit):
      "The event stream sent an event larger than \(limit) bytes; it was closed."
    case .notAnEventStream(let request, let status, let contentType):
      "\(request) answered \(status) (\(contentType ?? "no content type")), not an event stream."
    case .gaveUp(let request, let failures, let lastFailure):
      "\(request): \(failures) reconnections failed in a row (last: \(lastFailure))."
    }
  }
}
