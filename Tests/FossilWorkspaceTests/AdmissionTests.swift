import ComposableAuthoring
import ComposableWorkspace
import FossilWorkspace
import Foundation
import ProcessTestSupport
import Testing
import WorkspaceHTTP

@Suite("Fossil admission", .requires(.fossil))
struct AdmissionTests {
  @Test func aUserWhoMayCheckInIsAdmittedToEditAndPublish() async throws {
    try await FossilFixture.with { fixture in
      let session = try await fixture.signedIn(FossilFixture.ada)
      let admission = FossilAdmission(session: session)
      let context = try await admission.requestAdmission()
      #expect(context.identity.rawValue == "ada")
      #expect(context.capabilities == [.edit, .publish])
      let code = try await fixture.repository.projectCode()
      #expect(context.grant.rawValue == "ada@\(code)")
      #expect(try await admission.validate(context.grant) == context)
    }
  }

  @Test func aReadOnlyUserIsDeniedWithAReason() async throws {
    try await FossilFixture.with { fixture in
      let session = try await fixture.signedIn(FossilFixture.linus)
      let denial = await #expect(throws: AdmissionDenied.self) {
        try await FossilAdmission(session: session).requestAdmission()
      }
      #expect(
        denial?.reason
          == #"linus may not check in to this repository (capabilities "o"): read-only"#)
    }
  }

  @Test func anotherUsersGrantIsRejectedAndNoLoginIsNotARejection() async throws {
    try await FossilFixture.with { fixture in
      let ada = try await fixture.signedIn(FossilFixture.ada)
      let grant = try await FossilAdmission(session: ada).requestAdmission().grant
      let grace = try await fixture.signedIn(FossilFixture.grace)
      await #expect(throws: AuthoringGrantRejected.self) {
        try await FossilAdmission(session: grace).validate(grant)
      }
      // Signed out, the grant cannot be judged now: it is not rejected (it stays persisted).
      let signedOut = FossilSession(baseURL: fixture.baseURL)
      await #expect(throws: HTTPSessionError.signedOut) {
        try await FossilAdmission(session: signedOut).validate(grant)
      }
      let denial = await #expect(throws: AdmissionDenied.self) {
        try await FossilAdmission(session: signedOut).requestAdmission()
      }
      #expect(denial?.reason.contains("not signed in") == true)
    }
  }

  /// Capabilities removed on the server while a session is in force: the next external call
  /// answers `.invalidated`, and admission is denied from then on.
  @Test func capabilitiesRemovedMidSessionInvalidateTheNextCall() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, late\n")
      let changes = try await harness.capture()
      try await fixture.repository.setCapabilities("o", of: "ada")
      await #expect(throws: WorkspaceAuthorizationError.invalidated) {
        try await harness.fossil.publishProposal(
          harness.source, harness.baseline, changes, WorkspaceHarness.request())
      }
      await #expect(throws: WorkspaceAuthorizationError.invalidated) {
        try await harness.fossil.refreshBaseline(harness.source, harness.baseline)
      }
      await #expect(throws: WorkspaceAuthorizationError.invalidated) {
        try await harness.fossil.selectBranch(harness.source, "festival")
      }
      // Still signed in: losing a capability is not signing out.
      #expect(harness.session.status == .signedIn)
      await #expect(throws: AdmissionDenied.self) {
        try await FossilAdmission(session: harness.session).requestAdmission()
      }
      #expect(try await fixture.proposalBranches().isEmpty)
      // The edit is kept.
      #expect(try harness.read("a.txt") == "alpha, late\n")
    }
  }

  @Test func aLogoutElsewhereInvalidatesTheWorkspaceOnceWithoutALoop() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try await fixture.signedIn(FossilFixture.ada).signOut()
      await #expect(throws: WorkspaceAuthorizationError.invalidated) {
        try await harness.fossil.refreshBaseline(harness.source, harness.baseline)
      }
      #expect(harness.session.status.isSignedIn == false)
      await #expect(throws: WorkspaceAuthorizationError.invalidated) {
        try await harness.fossil.refreshBaseline(harness.source, harness.baseline)
      }
    }
  }
}
