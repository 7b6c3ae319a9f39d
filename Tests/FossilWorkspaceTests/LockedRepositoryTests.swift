import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import ProcessTestSupport
import Testing
import WorkspaceHTTP

@testable import FossilWorkspace

/// Fossil refuses a request at once with "database is locked" when another writer holds its
/// repository; nothing was written, so the session sends it again after a backoff.
@Suite("Fossil's locked repository", .requires(.fossil))
struct LockedRepositoryTests {
  static let lockedEnvelope = """
    {"fossil":"3c53b636","resultCode":"FOSSIL-1103","resultText":"database is locked: \
    {INSERT INTO rcvfrom(uid, mtime, nonce, ipaddr)VALUES(6, julianday('now'), NULL, '127.0.0.1')}"}
    """

  @Test func fossilsLockedRefusalsAreRecognisedAndNothingElse() {
    let branch = HTTPRequest.post("/json/branch/create", body: .none)
    let reply = HTTPRequest.post("/forume2", body: .none)
    let raw = HTTPRequest.get("/raw")
    func response(_ status: Int, _ body: String) -> HTTPResponse {
      HTTPResponse(status: status, body: Data(body.utf8))
    }
    // The JSON API's refusal, and the "Database error" page of other routes (as Fossil 2.21
    // answers them; see the end-to-end test below).
    #expect(FossilAnswer.isRepositoryLocked(response(200, Self.lockedEnvelope), of: branch))
    #expect(
      FossilAnswer.isRepositoryLocked(
        response(
          400,
          "<p class=\"generalError\">Database error: database is locked: {INSERT INTO rcvfrom"
            + "(uid) VALUES(6)}</p>"), of: reply))
    // Not a lock: the CSRF refusal (same code), a payload or a file that says the words.
    #expect(
      !FossilAnswer.isRepositoryLocked(
        response(200, #"{"resultCode":"FOSSIL-1103","resultText":"not authorized: {INSERT}"}"#),
        of: branch))
    #expect(
      !FossilAnswer.isRepositoryLocked(
        response(200, #"{"payload":{"comment":"database is locked"}}"#), of: branch))
    #expect(!FossilAnswer.isRepositoryLocked(response(200, Self.lockedEnvelope), of: raw))
    #expect(!FossilAnswer.isRepositoryLocked(response(400, "database is locked"), of: reply))
    #expect(
      !FossilAnswer.isRepositoryLocked(
        response(500, #"{"error":"Database error: database is locked"}"#), of: reply))
    // A sync reply's `error` card; not a file card whose content says the words.
    let sync = HTTPRequest.post(
      "/", body: .bytes(Data("pull".utf8), contentType: FossilSession.syncContentType))
    #expect(
      FossilAnswer.isRepositoryLocked(
        response(200, #"error Database\serror:\sdatabase\sis\slocked:\s{BEGIN\sIMMEDIATE}"#),
        of: sync))
    #expect(
      !FossilAnswer.isRepositoryLocked(
        response(200, "file abc 18\ndatabase is locked\n"), of: sync))
    #expect(
      !FossilAnswer.isRepositoryLocked(
        response(200, #"error Database\serror:\sdatabase\sis\slocked"#), of: raw))
  }

  @Test func aLockedRefusalIsSentAgainAfterTheBackoffOnTheClock() async throws {
    let arrivals = LockIsolated(0)
    let server = try LoopbackHTTPServer { _ in
      let arrival = arrivals.withValue { count -> Int in
        count += 1
        return count
      }
      let body = arrival < 3 ? Self.lockedEnvelope : #"{"payload":{"uuid":"abc"}}"#
      return HTTPServerResponse(
        status: 200, headers: ["Content-Type": "application/json"], body: .bytes(Data(body.utf8)))
    }
    let clock = TestClock()
    let session = Self.session(server.baseURL, attempts: 5)
    let answer = withDependencies {
      $0.clock = clock
    } operation: {
      Task { try await session.send(.post("/json/branch/create", body: .none, access: .public)) }
    }
    for (refusals, delay) in [(1, Duration.seconds(1)), (2, .seconds(2))] {
      try await Self.sleeper(on: clock)
      #expect(arrivals.current == refusals)
      await clock.advance(by: delay - .milliseconds(1))
      #expect(arrivals.current == refusals)  // the backoff is waited in full
      await clock.advance(by: .milliseconds(1))
    }
    let response = try await within(15, "the third attempt") { try await answer.value }
    #expect(response.text == #"{"payload":{"uuid":"abc"}}"#)
    #expect(arrivals.current == 3)
    await server.stop()
  }

  @Test func aRepositoryThatStaysLockedIsReportedUnavailable() async throws {
    let arrivals = LockIsolated(0)
    let server = try LoopbackHTTPServer { _ in
      arrivals.withValue { $0 += 1 }
      return HTTPServerResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: .bytes(Data(Self.lockedEnvelope.utf8)))
    }
    let clock = TestClock()
    let session = Self.session(server.baseURL, attempts: 3)
    let answer = withDependencies {
      $0.clock = clock
    } operation: {
      Task { try await session.send(.post("/json/branch/create", body: .none, access: .public)) }
    }
    for delay in [Duration.seconds(1), .seconds(2)] {
      try await Self.sleeper(on: clock)
      await clock.advance(by: delay)
    }
    let error = await #expect(throws: FossilUnavailable.self) {
      try await within(15, "the last attempt") { try await answer.value }
    }
    #expect(error?.message.contains("stayed locked by another writer (3 attempts)") == true)
    #expect(arrivals.current == 3)
    await server.stop()
  }

  /// End to end: another process holds the server repository's write lock while a proposal
  /// is published: after its own busy wait, Fossil refuses the sync with "database is locked",
  /// the client sends it again once the lock is gone, and exactly one record is made.
  @Test func aPublicationMeetingALockedRepositoryMakesExactlyOneRecord() async throws {
    try await FossilFixture.with { fixture in
      let lines = LockIsolated<[String]>([])
      let harness = try await WorkspaceHarness.make(
        fixture,
        configuration: FossilSessionConfiguration(
          timeout: .seconds(10), logger: HTTPLogger { line in lines.withValue { $0.append(line) } },
          lockedRepositoryAttempts: 100,
          lockedRepositoryBackoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(200)))
      )
      try harness.edit("a.txt", "alpha, while locked\n")
      let changes = try await harness.capture()
      let request = WorkspaceHarness.request()
      let lock = try await RepositoryLock.take(fixture)
      let ended = LockIsolated(false)
      let publication = Task {
        defer { ended.setValue(true) }
        return try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, request)
      }
      do {
        try await within(30, "a refusal for the locked repository") {
          while !ended.current, !lines.current.contains(where: { $0.contains("is locked") }) {
            try await Task.sleep(for: .milliseconds(20))
          }
        }
      } catch {
        await lock.release()
        publication.cancel()
        throw error
      }
      await lock.release()
      let record = try await within(60, "the publication") { try await publication.value }
      #expect(lines.current.contains { $0.hasPrefix("↻ POST / in") })
      #expect(try await fixture.proposalBranches() == [record.id])
      let again = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, request)
      #expect(again == record)
    }
  }

  private static func session(_ url: URL, attempts: Int) -> FossilSession {
    FossilSession(
      baseURL: url,
      configuration: FossilSessionConfiguration(
        timeout: .seconds(10), lockedRepositoryAttempts: attempts,
        lockedRepositoryBackoff: Backoff(initial: .seconds(1), multiplier: 2, jitter: 0)))
  }

  /// Returns once a task sleeps on `clock` (the retry's wait), boundedly.
  private static func sleeper(on clock: TestClock) async throws {
    try await within(15, "a wait on the clock") {
      while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
    }
  }
}

/// The write lock of a fixture's repository, held by a `fossil sql` child (`BEGIN IMMEDIATE`)
/// until ``release()`` — or for 15 s at most, so a failing test cannot leave it held.
struct RepositoryLock: Sendable {
  let released: URL
  let holder: Task<Void, any Error>

  static func take(_ fixture: FossilFixture) async throws -> RepositoryLock {
    let taken = fixture.directory.appendingPathComponent("lock-taken")
    let released = fixture.directory.appendingPathComponent("lock-released")
    let holder = Task {
      _ = try await fixture.repository.sql(
        """
        BEGIN IMMEDIATE;
        .shell touch '\(taken.path)'; i=0; while [ ! -e '\(released.path)' ] && [ $i -lt 300 ]; \
        do sleep 0.05; i=$((i+1)); done
        ROLLBACK;

        """)
    }
    let lock = RepositoryLock(released: released, holder: holder)
    do {
      try await within(15, "fossil sql to take the lock") {
        while !FileManager.default.fileExists(atPath: taken.path) {
          try await Task.sleep(for: .milliseconds(20))
        }
      }
    } catch {
      await lock.release()
      throw error
    }
    return lock
  }

  /// Lets the holder roll back, and returns once it has ended.
  func release() async {
    _ = FileManager.default.createFile(atPath: released.path, contents: nil)
    _ = try? await holder.value
  }
}
