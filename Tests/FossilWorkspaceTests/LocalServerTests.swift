import Foundation
import LoopbackHTTPServer
import ProcessTestSupport
import Testing

@testable import FossilWorkspace

@Suite("Local fossil server", .requires(.fossil))
struct LocalServerTests {
  @Test func aBusyPortIsAClearErrorWhenAskedForAndAnotherPortOtherwise() async throws {
    try await FossilFixture.with { fixture in
      let squatter = try LoopbackHTTPServer { _ in .text("not fossil") }
      let busy = squatter.port
      await #expect(throws: LocalFossilServerError.portInUse(busy)) {
        try await LocalFossilServer.start(serving: fixture.repository, port: busy)
      }
      // A start that finds its port taken after probing tries another one.
      let server = try await LocalFossilServer.start(
        serving: fixture.repository, candidates: [busy, nil], readyWithin: .seconds(15))
      #expect(server.port != busy)
      #expect(
        try await FossilSession(baseURL: server.baseURL).projectCode()
          == (try await fixture.repository.projectCode()))
      await server.stop()
      await squatter.stop()
    }
  }

  @Test func stoppingByPidEndsTheServerProcess() async throws {
    try await FossilFixture.with { fixture in
      let server = try await LocalFossilServer.start(serving: fixture.repository)
      #expect(kill(server.pid, 0) == 0)
      await server.stop()
      #expect(server.hasExited)
      #expect(kill(server.pid, 0) == -1, "process \(server.pid) is still there")
      await #expect(throws: FossilUnavailable.self) {
        try await FossilSession(baseURL: server.baseURL).projectCode()
      }
    }
  }

  @Test func aRunningServerLeavesNoPidFileBehindForAKillToStrand() async throws {
    try await FossilFixture.with { fixture in
      let server = try await LocalFossilServer.start(serving: fixture.repository)
      let temporary = FileManager.default.temporaryDirectory
      let pidFiles = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        .filter { $0.hasPrefix("fossil-server-") && $0.hasSuffix(".pid") }
      let ours = pidFiles.filter {
        let text = try? String(
          contentsOf: temporary.appendingPathComponent($0), encoding: .utf8)
        return text?.trimmingCharacters(in: .whitespacesAndNewlines) == "\(server.pid)"
      }
      #expect(ours.isEmpty, "\(ours) would outlive a SIGKILL of this process")
      await server.stop()
    }
  }

  @Test func aPortServedForAnotherRepositoryIsBusyNotOurs() async throws {
    try await FossilFixture.with { first in
      try await FossilFixture.with { second in
        // The second repository's server answers on the port: a start there is refused, not
        // taken for the first repository's server.
        await #expect(throws: LocalFossilServerError.portInUse(second.server.port)) {
          try await LocalFossilServer.start(serving: first.repository, port: second.server.port)
        }
      }
    }
  }
}
