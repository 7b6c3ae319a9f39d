import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing
import WorkspaceDemoFeature

/// Application stories on `makeWorkspaceDemoStore()`'s own store, started from saved state: what
/// the function itself does with it, and what revalidation decides.
@MainActor
@Suite("Application stories: starting from saved state")
struct RestoreStoryTests {
  @Test(
    "A ready session in the initial state is the client's working copy: it switches branches as saved"
  )
  func restoredSessionIsTheWorkingCopy() async throws {
    let system = DemoSystem()
    let session = try await system.signIn(username: "ada", password: "lovelace")
    let saved = App.State(
      session: session,
      editing: App.Editing.State(
        workspace: WorkspaceState(
          id: "events", availability: readySession(events: seedEvents, baseline: publishedR1)),
        content: .init()))
    let story = AppStory(
      system: system, credentials: DemoCredentials(.init(session: session)), initialState: saved)

    await story.send(.start)
    await story.send(.enterAuthoring)
    #expect(story.state.editing.authoring.context != nil)
    // Selecting a branch needs the client to know the copy and its baseline: the store
    // seeded it from the initial state (nothing was prepared — the session was ready).
    await story.send(.selectBranch("festival"))
    #expect(story.state.notice == nil)
    #expect(
      story.state.editing.workspace.session?.baseline
        == WorkspaceBranchReference(branch: "festival", revision: "r1"))
    #expect(story.state.editing.workspace.session?.source.events.map(\.id) == ["f1", "f2"])
    #expect(story.issues.messages.isEmpty)
  }

  @Test("Fail closed at start: a saved admitted state with no persisted grant is not in force")
  func savedAdmissionWithoutGrant() async throws {
    let system = DemoSystem()
    let session = try await system.signIn(username: "ada", password: "lovelace")
    let saved = App.State(
      session: session,
      editing: App.Editing.State(
        authoring: Authoring.State(admission: .admitted(adaContext)),
        workspace: WorkspaceState(
          id: "events", availability: readySession(events: seedEvents, baseline: publishedR1)),
        content: .init()))
    let story = AppStory(
      system: system, credentials: DemoCredentials(.init(session: session)), initialState: saved)

    await story.send(.start)
    #expect(story.state.editing.authoring.admission == .notAdmitted)
    #expect(story.credentials.capability.current == nil)
    await story.send(
      .editing(.content(.add(Event(id: "e9", title: "Sneaky", date: "TBA", venue: "TBA")))))
    await story.send(.editing(.content(.propose(title: "Sneaky"))))
    #expect(await system.allProposals().isEmpty)
    #expect(story.issues.messages.isEmpty)
  }

  @Test(
    "Revalidation applies the policy: a restored grant of an account that may only read is refused")
  func readerGrantIsRefused() async throws {
    // A grant issued to linus, who may only read — as a state file from before a policy change
    // holds it.
    let system = try readerWithGrant()
    let session = DemoSession(token: "session-1", username: "linus")
    let credentials = DemoCredentials(
      .init(session: session, persistedGrant: AuthoringGrant(rawValue: "grant-1")))
    let story = AppStory(
      system: system, credentials: credentials, initialState: App.State(session: session))

    await story.send(.start)
    #expect(
      story.state.editing.authoring.admission
        == .denied(AdmissionDenied(reason: "Linus may read but not author")))
    #expect(story.credentials.capability.current == nil)
    #expect(credentials.current.persistedGrant == nil, "the refused grant was kept")
    #expect(story.state.editing.workspace.availability == .inactive)
    await story.send(.editing(.content(.propose(title: "Reader's proposal"))))
    #expect(await system.allProposals().isEmpty)
    #expect(story.issues.messages.isEmpty)
  }

  /// The seeded system with a live session and a grant for linus.
  private func readerWithGrant() throws -> DemoSystem {
    let seed = try JSONEncoder().encode(DemoSystemSnapshot.seed)
    var json = try #require(try JSONSerialization.jsonObject(with: seed) as? [String: Any])
    json["sessions"] = ["session-1": "linus"]
    json["grants"] = [
      "grant-1": ["id": "grant-1", "username": "linus", "sessionToken": "session-1"]
    ]
    json["lastTokenNumber"] = 1
    json["lastGrantNumber"] = 1
    let snapshot = try JSONDecoder().decode(
      DemoSystemSnapshot.self, from: JSONSerialization.data(withJSONObject: json))
    return DemoSystem(snapshot: snapshot)
  }
}
