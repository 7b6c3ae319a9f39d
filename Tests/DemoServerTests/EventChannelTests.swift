import ComposableCore
import DemoHTTPProtocol
import Foundation
import HTTPTestSupport
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// The live channel: numbered announcements of new proposals and merges, resumable with
/// `Last-Event-ID`, ended with the session.
@Suite("Demo server: the event channel")
struct EventChannelTests {
  /// The first `count` events of a stream opened with `lastEventID`.
  private func events(
    _ session: HTTPSession, after lastEventID: String?, count: Int
  ) async throws -> [ServerSentEvent] {
    let stream = session.events(
      .get(DemoAPI.events), options: EventStreamOptions(lastEventID: lastEventID))
    return try await within(10, "\(count) events") {
      var received: [ServerSentEvent] = []
      for try await event in stream {
        received.append(event)
        if received.count == count { break }
      }
      return received
    }
  }

  @Test("Proposals and merges are announced with ids; Last-Event-ID resumes right after one")
  func announcements() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    let p1 = try await propose(session, grant.id, "a")
    _ = try await propose(session, grant.id, "b")
    _ = try await session.send(HTTPRequest(method: .post, path: DemoAPI.merge(p1)))
    let all = try await events(session, after: "0", count: 3)
    #expect(all.map(\.id) == ["1", "2", "3"])
    #expect(all.map(\.type) == ["proposed", "proposed", "merged"])
    let merged = try JSONDecoder().decode(DemoAPI.Announcement.self, from: Data(all[2].data.utf8))
    #expect(
      merged
        == DemoAPI.Announcement(
          kind: .merged, proposal: p1, title: "a", author: "ada", branch: "published",
          revision: "r2"))
    let resumed = try await events(session, after: "1", count: 2)
    #expect(resumed.map(\.id) == ["2", "3"], "nothing before the last id seen, nothing twice")
  }

  @Test("Without Last-Event-ID a stream starts from now; a live announcement arrives at once")
  func live() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    _ = try await propose(session, grant.id, "old")
    let states = Reports<EventStreamState>()
    let stream = session.events(
      .get(DemoAPI.events), options: EventStreamOptions(onStateChange: states.report))
    let first = Task { try await next(stream, "a live event") }
    _ = try await states.next("the stream to open") { $0 == .open ? () : nil }
    _ = try await propose(session, grant.id, "new")
    let event = try #require(try await first.value)
    #expect(event.id == "2")
    #expect(event.data.contains("\"new\""))
  }

  @Test("A stream ends when its session ends; the reconnection meets a 401")
  func endsWithSession() async throws {
    let server = try TestServer(configuration: .init(heartbeat: .milliseconds(100)))
    defer { Task { await server.stop() } }
    let (session, _) = try await server.signIn()
    let cookies = session.cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    // A second client of the same session, which the first signs out.
    let other = HTTPSession(baseURL: server.baseURL)
    var request = HTTPRequest.get(DemoAPI.events, access: .public)
    request.headers["Cookie"] = cookies
    let states = Reports<EventStreamState>()
    let stream = other.events(request, options: EventStreamOptions(onStateChange: states.report))
    let ended = Task { for try await _ in stream {} }
    defer { ended.cancel() }
    _ = try await states.next("the stream to open") { $0 == .open ? () : nil }
    #expect(try await session.send(HTTPRequest(method: .post, path: DemoAPI.logout)).status == 204)
    // Bounded from the sign-out on: the end, the reconnection and its 401 take several hops
    // of this process's pool, which the suite's start keeps busy for seconds.
    await #expect(throws: EventStreamError.self) {
      try await within(15, "the stream to end") { try await ended.value }
    }
  }
}

/// The first element of `stream` within 10 seconds.
func next(
  _ stream: AsyncThrowingStream<ServerSentEvent, any Error>, _ what: String
) async throws -> ServerSentEvent? {
  try await within(10, what) {
    for try await event in stream { return event }
    return nil
  }
}
