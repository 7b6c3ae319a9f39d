import ComposableCore
import ComposableTesting
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@Suite("Server-sent events over real sockets")
struct EventStreamTests {
  /// A feed of six numbered events; each connection starts after its Last-Event-ID. The first
  /// connection sends 1–3 and half of 4, then resets.
  private func resettingFeed(connections: LockIsolated<[String?]>) throws -> SessionServer {
    try SessionServer { router in
      router.get("/live") { request in
        let resumeAfter = request.headers["Last-Event-ID"]
        let number = connections.withValue { connections -> Int in
          connections.append(resumeAfter)
          return connections.count
        }
        return .eventStream { writer in
          let start = (resumeAfter.flatMap { Int($0) } ?? 0) + 1
          for id in start...6 {
            if number == 1 && id == 4 {
              try? writer.write(raw: Data("id: 4\ndata: half of fo".utf8))
              writer.resetConnection()
              return
            }
            try? writer.send(ServerSentEvent(type: "tick", data: "event \(id)", id: "\(id)"))
          }
          await writer.disconnected()
        }
      }
    }
  }

  @Test func aResetMidStreamResumesFromTheLastEventIDWithNoEventLostOrDoubled() async throws {
    let connections = LockIsolated<[String?]>([])
    let server = try resettingFeed(connections: connections)
    let session = try await server.signedInSession()
    let stream = ClockedStream(session)
    let (clock, states, collector) = (stream.clock, stream.states, stream.collector)
    let wait = try await states.nextWait("the reconnection wait")
    #expect(wait == .seconds(1))
    #expect(collector.received.map(\.id) == ["1", "2", "3"])
    await clock.advance(by: wait)
    try await collector.waitFor(6)
    #expect(collector.received.map(\.data) == (1...6).map { "event \($0)" })
    #expect(collector.received.map(\.id) == (1...6).map { "\($0)" })
    #expect(connections.current == [nil, "3"])
    collector.task.cancel()
    #expect(try await collector.end() == nil)
    await server.stop()
  }

  @Test func theServersRetryIsHonouredOnTheClock() async throws {
    let connections = LockIsolated(0)
    let server = try SessionServer { router in
      router.get("/live") { _ in
        let number = connections.withValue { count -> Int in
          count += 1
          return count
        }
        return .eventStream { writer in
          if number == 1 {
            try? writer.send(ServerSentEvent(data: "first", id: "1"), retry: .seconds(5))
          } else {
            try? writer.send(ServerSentEvent(data: "second", id: "2"))
            await writer.disconnected()
          }
        }
      }
    }
    let session = try await server.signedInSession()
    let stream = ClockedStream(session)
    let (clock, states, collector) = (stream.clock, stream.states, stream.collector)
    let wait = try await states.nextWait("the reconnection wait")
    #expect(wait == .seconds(5), "the server's retry: was not the wait")
    await clock.advance(by: .seconds(5) - .milliseconds(1))
    #expect(connections.current == 1, "reconnected before the server's retry: elapsed")
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .milliseconds(1))
    try await collector.waitFor(2)
    #expect(collector.received.map(\.data) == ["first", "second"])
    collector.task.cancel()
    _ = try await collector.end()
    await server.stop()
  }

  @Test func stoppingTheIterationDisconnectsAndTheServerSeesIt() async throws {
    let left = Signal()
    let server = try SessionServer { router in
      router.get("/live") { _ in
        .eventStream { writer in
          try? writer.send(ServerSentEvent(data: "hello"))
          await writer.disconnected()
          left.fire()
        }
      }
    }
    let session = try await server.signedInSession()
    for try await event in session.events(.get("/live")) {
      #expect(event.data == "hello")
      break
    }
    try await left.wait("the server to see the disconnect")
    await server.stop()
  }

  @Test func cancellingAtOnceEndsTheStreamWithoutHanging() async throws {
    let server = try SessionServer { router in
      router.get("/live") { _ in .eventStream { writer in await writer.disconnected() } }
    }
    let session = try await server.signedInSession()
    for _ in 0..<20 {
      let collector = EventCollector(session.events(.get("/live")))
      collector.task.cancel()
      #expect(try await collector.end() == nil)
    }
    await server.stop()
  }

  @Test func aHostileTenMegabyteLineIsAClearErrorAndNotReconnected() async throws {
    let connections = LockIsolated(0)
    let server = try SessionServer { router in
      router.get("/live") { _ in
        connections.withValue { $0 += 1 }
        return .eventStream { writer in
          try? writer.write(
            raw: Data("data: ".utf8) + Data(repeating: UInt8(ascii: "x"), count: 10 << 20))
          await writer.disconnected()
        }
      }
    }
    let session = try await server.signedInSession()
    let collector = EventCollector(session.events(.get("/live")))
    let error = try await collector.end()
    #expect(error as? EventStreamError == .lineTooLong(limit: 1 << 20))
    #expect(collector.received.isEmpty)
    #expect(connections.current == 1)
    await server.stop()
  }

  @Test func a401EndsTheStreamAndTheSession() async throws {
    let server = try SessionServer { router in
      router.get("/live") { _ in .status(401) }
    }
    let session = try await server.signedInSession()
    let error = try await EventCollector(session.events(.get("/live"))).end()
    #expect(error as? HTTPSessionError == .signedOut)
    #expect(session.status == .signedOut(.unauthorized))
    #expect(session.cookies.isEmpty)
    await server.stop()
  }

  @Test func signingOutWhileConnectedEndsTheStream() async throws {
    let left = Signal()
    let server = try SessionServer { router in
      router.get("/live") { _ in
        .eventStream { writer in
          try? writer.send(ServerSentEvent(data: "hello"))
          await writer.disconnected()
          left.fire()
        }
      }
    }
    let session = try await server.signedInSession()
    let collector = EventCollector(session.events(.get("/live")))
    try await collector.waitFor(1)
    session.endSession()
    #expect(try await collector.end() as? HTTPSessionError == .signedOut)
    try await left.wait("the server to see the disconnect")
    await server.stop()
  }

  @Test func streamCookiesAreTakenAndA204EndsTheStream() async throws {
    let server = try SessionServer { router in
      router.get("/live") { request in
        guard request.headers["Last-Event-ID"] == nil else { return .status(204) }
        var response = HTTPServerResponse.eventStream { writer in
          try? writer.send(ServerSentEvent(data: "only", id: "1"))
        }
        response.setCookie(SetCookie(name: "stream", value: "s1"))
        return response
      }
    }
    let session = try await server.signedInSession()
    let stream = ClockedStream(session)
    let (clock, states, collector) = (stream.clock, stream.states, stream.collector)
    await clock.advance(by: try await states.nextWait("the reconnection wait"))
    #expect(try await collector.end() == nil)
    #expect(collector.received.map(\.data) == ["only"])
    #expect(session.cookie(named: "stream")?.value == "s1")
    await server.stop()
  }

  @Test func somethingThatIsNoEventStreamIsAClearError() async throws {
    let server = try SessionServer { router in
      router.get("/live") { _ in .text("hello") }
    }
    let session = try await server.signedInSession()
    let error = try await EventCollector(session.events(.get("/live"))).end()
    #expect(
      "\(error.map { "\($0)" } ?? "none")"
        == "GET /live answered 200 (text/plain; charset=utf-8), not an event stream.")
    await server.stop()
  }

  @Test func fruitlessReconnectionsGrowTheWaitAndAreBounded() async throws {
    let server = try SessionServer { router in
      router.get("/live") { _ in .status(503) }
    }
    let session = try await server.signedInSession()
    let stream = ClockedStream(session, maxReconnectAttempts: 2)
    let (clock, states, collector) = (stream.clock, stream.states, stream.collector)
    let first = try await states.nextWait("the first wait")
    await clock.advance(by: first)
    let second = try await states.nextWait("the second wait")
    await clock.advance(by: second)
    #expect([first, second] == [.seconds(1), .seconds(2)])
    let error = try await collector.end()
    #expect(
      error as? EventStreamError
        == .gaveUp(request: "GET /live", failures: 3, lastFailure: "the server answered 503"))
    #expect(server.recording.requests(to: "/live").count == 3)
    await server.stop()
  }
}
