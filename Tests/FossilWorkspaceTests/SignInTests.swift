import Foundation
import FossilWorkspace
import HTTPTestSupport
import Testing
import WorkspaceHTTP

@Suite("Fossil sign-in")
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
}
