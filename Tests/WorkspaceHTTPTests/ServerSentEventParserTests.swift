import Foundation
import HTTPTestSupport
import Testing
import WorkspaceHTTP

@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
  /// Parses `text` fed in one piece, then byte by byte: both must give the same events.
  private func parse(_ text: String, lastEventID: String? = nil) throws -> [ServerSentEvent] {
    try parse(Array(text.utf8), lastEventID: lastEventID)
  }

  private func parse(_ bytes: [UInt8], lastEventID: String? = nil) throws -> [ServerSentEvent] {
    var whole = ServerSentEventParser(lastEventID: lastEventID)
    let events = try whole.push(bytes)
    var bytewise = ServerSentEventParser(lastEventID: lastEventID)
    var trickled: [ServerSentEvent] = []
    for byte in bytes { trickled += try bytewise.push([byte]) }
    #expect(trickled == events, "byte-by-byte feeding changed the events")
    #expect(bytewise.lastEventID == whole.lastEventID)
    return events
  }

  @Test func fieldsMakeAnEvent() throws {
    #expect(
      try parse("id: 7\nevent: merged\ndata: P1\n\n")
        == [ServerSentEvent(type: "merged", data: "P1", id: "7")])
  }

  @Test func dataLinesJoinWithLineFeedsAndTheTypeDefaultsToMessage() throws {
    #expect(
      try parse(
        "data: first\ndata:second\ndata\ndata:  two spaces\n\nevent: x\ndata: a\n\ndata: b\n\n")
        == [
          ServerSentEvent(data: "first\nsecond\n\n two spaces"),
          ServerSentEvent(type: "x", data: "a"),
          ServerSentEvent(data: "b"),
        ])
  }

  @Test func commentsAndUnknownFieldsAreIgnored() throws {
    #expect(
      try parse(": heartbeat\n:\nfoo: bar\ndata: x\n: inside\n\n")
        == [ServerSentEvent(data: "x")])
  }

  @Test(arguments: ["\r\n", "\n", "\r"])
  func everyLineEndWorks(end: String) throws {
    let text = ["id: 1", "data: a", "data: b", "", "data: c", "", ""].joined(separator: end)
    #expect(
      try parse(text)
        == [ServerSentEvent(data: "a\nb", id: "1"), ServerSentEvent(data: "c", id: "1")])
  }

  @Test func aCRLFSplitAcrossChunksEndsOneLine() throws {
    var parser = ServerSentEventParser()
    #expect(try parser.push(Array("data: a\r".utf8)) == [])
    #expect(try parser.push(Array("\n\r".utf8)) == [ServerSentEvent(data: "a")])
    #expect(try parser.push(Array("\ndata: b\r\r".utf8)) == [ServerSentEvent(data: "b")])
  }

  @Test func aLeadingBOMIsSkippedEvenSplitButOnlyAtTheStart() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    #expect(try parse(bom + Array("data: a\n\n".utf8)) == [ServerSentEvent(data: "a")])
    var parser = ServerSentEventParser()
    #expect(try parser.push(bom[0..<2]) == [])
    #expect(try parser.push(bom[2...] + Array("data: b\n\n".utf8)) == [ServerSentEvent(data: "b")])
    // A second BOM is part of the next line's field name: an unknown field.
    #expect(try parse(bom + bom + Array("data: c\n\n".utf8)) == [])
    // Bytes that only start like a BOM are kept.
    #expect(try parse([0xEF] + Array("data: d\n\n".utf8)) == [])
  }

  @Test func anEventWithoutDataIsNotDispatchedButItsIDCounts() throws {
    var parser = ServerSentEventParser()
    #expect(try parser.push(Array("id: 9\nevent: ping\n\n".utf8)) == [])
    #expect(parser.lastEventID == "9")
    #expect(try parser.push(Array("data: x\n\n".utf8)) == [ServerSentEvent(data: "x", id: "9")])
  }

  @Test func idsCarryOverAnEmptyIDResetsAndNULIsIgnored() throws {
    #expect(
      try parse(
        "id: 3\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 4\u{0}x\ndata: d\n\n", lastEventID: "2")
        == [
          ServerSentEvent(data: "a", id: "3"), ServerSentEvent(data: "b", id: "3"),
          ServerSentEvent(data: "c", id: nil), ServerSentEvent(data: "d", id: nil),
        ])
    var resumed = ServerSentEventParser(lastEventID: "41")
    #expect(resumed.lastEventID == "41")
    #expect(try resumed.push(Array("data: e\n\n".utf8)) == [ServerSentEvent(data: "e", id: "41")])
  }

  @Test func retrySetsTheReconnectionTimeOnlyWithDigits() throws {
    var parser = ServerSentEventParser()
    _ = try parser.push(Array("retry: 2500\n\nretry: soon\nretry: -5\nretry\nretry: 1e3\n\n".utf8))
    #expect(parser.reconnectionTime == .milliseconds(2500))
  }

  @Test func aRetryTooLargeSaturatesInsteadOfLosingDigits() throws {
    var parser = ServerSentEventParser()
    _ = try parser.push(Array("retry: 1234567890123\n\n".utf8))
    #expect(parser.reconnectionTime == .milliseconds(1_234_567_890_123))
    _ = try parser.push(Array("retry: 99999999999999999999999999\n\n".utf8))
    #expect(parser.reconnectionTime == .milliseconds(Int64.max))
  }

  @Test func anEventIncompleteAtTheEndIsNeverDispatchedNorItsIDCommitted() throws {
    var parser = ServerSentEventParser()
    let events = try parser.push(Array("id: 1\ndata: a\n\nid: 2\ndata: b".utf8))
    #expect(events == [ServerSentEvent(data: "a", id: "1")])
    #expect(parser.lastEventID == "1")
  }

  @Test func multibyteCharactersSplitAcrossChunksDecode() throws {
    let bytes = Array("data: naïve ☃ 🎉\n\n".utf8)
    var parser = ServerSentEventParser()
    var events: [ServerSentEvent] = []
    for chunk in stride(from: 0, to: bytes.count, by: 3) {
      events += try parser.push(bytes[chunk..<min(chunk + 3, bytes.count)])
    }
    #expect(events == [ServerSentEvent(data: "naïve ☃ 🎉")])
  }

  @Test func aHostileLongLineIsAClearErrorBeforeItIsAllRead() async throws {
    let (fed, failure) = try await offThePool { () -> (Int, EventStreamError?) in
      var parser = ServerSentEventParser(limits: .init(maxLineBytes: 1 << 20))
      let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
      var fed = 0
      do throws(EventStreamError) {
        _ = try parser.push(Array("data: ".utf8))
        while fed < 10 << 20 {
          _ = try parser.push(chunk)
          fed += chunk.count
        }
        return (fed, nil)
      } catch {
        return (fed, error)
      }
    }
    #expect(failure == .lineTooLong(limit: 1 << 20))
    #expect(fed <= 1 << 20, "the parser kept reading past its limit")
    #expect(
      EventStreamError.lineTooLong(limit: 1 << 20).description
        == "The event stream sent a line longer than 1048576 bytes; it was closed.")
  }

  @Test func aHostileHugeEventIsAClearError() throws {
    var parser = ServerSentEventParser(limits: .init(maxEventBytes: 1000))
    let line = Array("data: \(String(repeating: "y", count: 99))\n".utf8)
    #expect(throws: EventStreamError.eventTooLarge(limit: 1000)) {
      for _ in 0..<20 { _ = try parser.push(line) }
    }
  }
}
