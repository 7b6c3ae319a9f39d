import Foundation
import HTTPTestSupport
import LoopbackSockets
import Testing
import WorkspaceHTTP

/// The refusing port the freeze stories send to stays theirs: a server of another test started
/// meanwhile cannot take it (it once did, and answered 37 of 2,000 requests meant to fail).
@Suite struct RefusingLoopbackPortTests {
  @Test func noListenerCanTakeTheHeldPortAndEveryConnectionIsRefused() async throws {
    let refusing = try RefusingLoopbackPort()
    defer { withExtendedLifetime(refusing) {} }

    #expect(throws: LoopbackSocketError.self, "a listener bound the held port") {
      try LoopbackListener(port: refusing.port) { $0.close() }
    }
    // What makes it a test of whether a given port is free.
    #expect(throws: POSIXError.self, "the held port was held twice") {
      try RefusingLoopbackPort(port: refusing.port)
    }
    let base = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
    let session = HTTPSession(baseURL: base)
    await #expect(throws: (any Error).self, "a request to the held port was answered") {
      try await session.send(.get("/x", access: .public))
    }
  }

  @Test func releasingThePortFreesIt() async throws {
    var refusing: RefusingLoopbackPort? = try RefusingLoopbackPort()
    let port = try #require(refusing?.port)
    refusing = nil
    #expect(try RefusingLoopbackPort(port: port).port == port)
    let listener = try LoopbackListener(port: port) { $0.close() }
    #expect(listener.port == port)
    await listener.stop()
  }
}
