import ComposableCore
import FossilWorkspace
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import ProcessTestSupport
import Testing
import WorkspaceHTTP

@Suite("Fossil sign-in", .requires(.fossil))
struct SignInTests {
  @Test func signInRestoreAndSignOut() async throws {
    try await FossilFixture.with { fixture in
      let session = FossilSession(baseURL: fixture.baseURL)
      #expect(session.status == .signedOut(nil))
      let user = try await session.signIn(name: "ada", password: FossilFixture.ada.password)
      #expect(user.name == "ada")
      #expect(user.capabilities.mayCheckIn)
      #expect(session.status == .signedIn)
      #expect(try await session.restore()?.name == "ada")
      let current = try await session.currentUser()
      #expect(current.capabilities.effective?["checkin"] == true)
      try await session.signOut()
      #expect(session.status == .signedOut(.signedOut))
      #expect(try await session.restore() == nil)
    }
  }

  @Test func aWrongPasswordIsRefusedAndLeavesNoLogin() async throws {
    try await FossilFixture.with { fixture in
      let session = FossilSession(baseURL: fixture.baseURL)
      let error = await #expect(throws: FossilError.self) {
        try await session.signIn(name: "ada", password: "not-her-password")
      }
      #expect(error == .signInRefused(reason: "Login failed - no match found"))
      #expect(error?.description.contains("not-her-password") == false)
      #expect(session.status == .signedOut(.signedOut))
      await #expect(throws: HTTPSessionError.signedOut) { try await session.currentUser() }
    }
  }

  @Test func anExpiredLoginEndsTheSessionOnceAndLaterCallsFailAtOnce() async throws {
    try await FossilFixture.with { fixture in
      let requests = LockIsolated<[String]>([])
      let session = FossilSession(
        baseURL: fixture.baseURL,
        configuration: FossilSessionConfiguration(
          logger: HTTPLogger { line in requests.withValue { $0.append(line) } }))
      _ = try await session.signIn(name: "ada", password: FossilFixture.ada.password)
      let updates = BoundedIterator(session.statusUpdates())
      #expect(try await updates.next() == .signedIn)
      try await fixture.repository.expireLogin(of: "ada")
      await #expect(throws: HTTPSessionError.signedOut) { try await session.currentUser() }
      guard case .signedOut(.serverSignal(let signal)) = session.status else {
        Issue.record("not signed out by the server's signal: \(session.status)")
        return
      }
      #expect(signal.contains("nobody"))
      #expect(try await updates.next() == session.status)
      // No loop: a later call fails at once, without a request.
      let sent = requests.current.filter { $0.hasPrefix("→") }.count
      await #expect(throws: HTTPSessionError.signedOut) { try await session.currentUser() }
      #expect(requests.current.filter { $0.hasPrefix("→") }.count == sent)
    }
  }

  @Test func aLogoutFromAnotherClientSignsThisOneOut() async throws {
    try await FossilFixture.with { fixture in
      let here = try await fixture.signedIn(FossilFixture.ada)
      let elsewhere = try await fixture.signedIn(FossilFixture.ada)
      #expect(try await here.currentUser().name == "ada")
      try await elsewhere.signOut()
      await #expect(throws: HTTPSessionError.signedOut) { try await here.currentUser() }
      #expect(here.status.isSignedIn == false)
      // Signing in again works: the session is a state, not a failure loop.
      _ = try await here.signIn(name: "ada", password: FossilFixture.ada.password)
      #expect(try await here.currentUser().name == "ada")
    }
  }

  @Test func signingOutClearsTheLoginEvenWhenTheServerIsGone() async throws {
    try await FossilFixture.with { fixture in
      let session = try await fixture.signedIn(FossilFixture.ada)
      await fixture.server.stop()
      await #expect(throws: FossilUnavailable.self) { try await session.signOut() }
      #expect(session.status == .signedOut(.signedOut))
      await #expect(throws: HTTPSessionError.signedOut) { try await session.currentUser() }
    }
  }

  @Test func aServerAnsweringGarbageIsAClearErrorNotATrap() async throws {
    let garbage = try LoopbackHTTPServer { request in
      request.path == "/json/whoami"
        ? .json(#"{"payload": 12}"#) : .text("<html>surprise</html>\u{0}\u{1}")
    }
    await Self.expectGarbageIsRefused(by: garbage)
    await garbage.stop()
  }

  private static func expectGarbageIsRefused(by garbage: LoopbackHTTPServer) async {
    let session = FossilSession(baseURL: garbage.baseURL)
    let signIn = await #expect(throws: FossilError.self) {
      try await session.signIn(name: "ada", password: "secret-password")
    }
    guard case .unexpectedAnswer(let request, let reason)? = signIn else {
      Issue.record("expected unexpectedAnswer, got \(String(describing: signIn))")
      return
    }
    #expect(request == "POST /json (login)")
    #expect(reason.contains("not Fossil's JSON"))
    #expect(session.status.isSignedIn == false)
    await #expect(throws: FossilError.self) { try await session.restore() }
  }
}
