import ComposableAuthoring
import DemoHTTPBackend
import Foundation
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// Application authentication and admission over the demo server: the PKCE door passed by the
/// backend itself (demo-cli has no browser), with a real loopback listener.
@Suite("HTTP backend: sign-in and admission")
struct SignInTests {
  @Test("Sign-in passes the PKCE door; the session names the account, never a cookie")
  func signIn() async throws {
    let harness = try Harness()
    let session = try await harness.signIn()
    #expect(session.username == "ada")
    #expect(harness.credentials.current.session == session)
    let admitted = try await harness.authoring.requestAdmission()
    #expect(admitted.identity.rawValue == "ada" && admitted.capabilities == [.edit, .publish])
    #expect(try await harness.authoring.validate(admitted.grant) == admitted)
    await harness.close()
  }

  @Test("A wrong password is refused in one clear sentence; the previous session stays")
  func wrongPassword() async throws {
    let harness = try Harness()
    let previous = try await harness.signIn()
    await #expect {
      try await harness.signIn("ada", "wrong")
    } throws: { error in
      "\(error)" == "wrong username or password (401)"
    }
    #expect(harness.credentials.current.session == previous)
    #expect(try await harness.authoring.requestAdmission().identity.rawValue == "ada")
    await harness.close()
  }

  @Test("A reader is denied admission by the server's policy, with its reason")
  func readerDenied() async throws {
    let harness = try Harness()
    try await harness.signIn("linus", "torvalds")
    await #expect(throws: AdmissionDenied(reason: "Linus may read but not author")) {
      try await harness.authoring.requestAdmission()
    }
    await harness.close()
  }

  @Test("A revoked grant is rejected; signed out, validation is undecided (nothing is sent)")
  func validation() async throws {
    let harness = try Harness()
    let context = try await harness.author()
    try await harness.system.revokeAllGrants()
    await #expect(throws: AuthoringGrantRejected.self) {
      try await harness.authoring.validate(context.grant)
    }
    await harness.auth.signOut()
    #expect(harness.credentials.current.session == nil)
    // The server's session ended too: its system knows no session of ada any more.
    await #expect(throws: DemoError.sessionExpired) {
      try await harness.system.account(token: "session-1")
    }
    // Undecided, not a rejection: Authoring keeps a persisted grant over it.
    await #expect(throws: HTTPSessionError.signedOut) {
      try await harness.authoring.validate(context.grant)
    }
    await harness.close()
  }

  @Test("Signing in again ends the previous session on the server")
  func signInAgain() async throws {
    let harness = try Harness()
    let first = try await harness.signIn()
    let second = try await harness.signIn("grace", "hopper")
    #expect(first.token != second.token)
    #expect(second.username == "grace")
    await #expect(throws: DemoError.sessionExpired) {
      try await harness.system.account(token: "session-1")
    }
    await harness.close()
  }
}
