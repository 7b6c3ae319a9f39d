import ComposableWorkspace
import DemoBackendInterface
import DemoHTTPBackend
import Foundation
import Testing
import WorkspaceDemoFeature

/// The backend's live channel: the server's announcements as notices, and the server ending
/// the session, told once.
@Suite("HTTP backend: the live channel")
struct LiveChannelTests {
  @Test("A merge arrives as a notice; nothing announced before the sign-in does")
  func merged() async throws {
    let harness = try Harness()
    // Before ada signs in, grace proposes over HTTP: an announcement ada never hears of.
    let grace = try Harness(server: harness.server)
    try await grace.author("grace", "hopper")
    _ = try await grace.propose(
      Event(id: "g1", title: "Grace's", date: "2027-04-03", venue: "Dock"))
    await grace.clients.live?.close()
    try await harness.author()
    let live = try #require(harness.clients.live)
    let record = try await harness.propose(
      Event(id: "e7", title: "Fair", date: "2027-04-04", venue: "Square"))
    _ = try await harness.clients.application.catalogue.merge(record.id)
    let announcement = await live.wait(timeout: .seconds(10)) {
      if case .notice(let notice) = $0 { notice.kind == .merged } else { false }
    }
    guard case .notice(let notice)? = announcement else {
      Issue.record("no merge notice arrived")
      return await harness.close()
    }
    #expect(notice.proposal == record.id)
    #expect(notice.reference == WorkspaceBranchReference(branch: "published", revision: "r2"))
    #expect("\(notice)" == "\(record.id) merged into published@r2 — refresh available")
    let drained = live.drain()
    #expect(drained.contains(.notice(notice)))
    let ids = drained.compactMap { if case .notice(let n) = $0 { n.id } else { nil } }
    #expect(ids == ["2", "3"], "ada's proposal, then its merge: nothing older, nothing twice")
    #expect(live.drain().isEmpty, "each announcement is drained once")
    await harness.close()
  }

  @Test("The server ending the session (401) is announced once; the app's sign-out never")
  func sessionEnded() async throws {
    let harness = try Harness()
    try await harness.author()
    let live = try #require(harness.clients.live)
    let client = harness.clients.application.workspace
    let session = try await client.prepareSource("events")
    // The server's system forgets the session (as a restart would): the next call meets a 401.
    try await harness.system.signOut(token: "session-1")
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await client.captureChanges(session.source, session.baseline)
    }
    let ended = live.drain().filter { if case .sessionEnded = $0 { true } else { false } }
    #expect(ended == [.sessionEnded(reason: "the server answered 401")])
    #expect(live.drain().isEmpty, "told once")
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      try await client.captureChanges(session.source, session.baseline)
    }
    #expect(live.drain().isEmpty, "a later refusal (nothing sent) is not news")
    // Signing in again and out by the app's own choice announces nothing.
    try await harness.author()
    await harness.auth.signOut()
    #expect(live.drain().filter { if case .sessionEnded = $0 { true } else { false } }.isEmpty)
    await harness.close()
  }
}
