import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

/// Removing local workspace data is the application's own operation.
@MainActor
@Suite("Application stories: removing local workspace data")
struct LocalDataStoryTests {
  let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

  @Test(
    "forgetWorkspace: inactive, the local copy deleted, records kept; entering prepares a fresh copy"
  )
  func forget() async {
    let system = DemoSystem()
    let credentials = DemoCredentials()
    let copies = DemoWorkingCopies()
    let story = AppStory(
      system: system, credentials: credentials, workingCopies: copies,
      workspace: .demo(system: system, credentials: credentials, workingCopies: copies))
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.add(harbour))))
    await story.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    await story.send(
      .editing(.content(.add(Event(id: "e5", title: "Unproposed", date: "TBA", venue: "TBA")))))

    await story.send(.forgetWorkspace)
    #expect(story.state.editing.workspace == WorkspaceState(id: "events"))
    #expect(copies["events"] == nil, "the client still holds the working copy")
    #expect(story.state.editing.content.form == .idle)
    #expect(story.state.editing.content.proposals.map(\.id) == ["P1"])
    // Admission is untouched: removing local data is not an authorization change.
    #expect(story.state.editing.authoring.context != nil)

    await story.send(.enterAuthoring)
    #expect(
      story.state.editing.workspace.availability
        == readySession(events: seedEvents, baseline: publishedR1))
    #expect(await system.allProposals().count == 1)
    #expect(story.issues.messages.isEmpty)
  }

  @Test("A copy that cannot be removed is said so in the notice; the workspace is inactive anyway")
  func removalFails() async {
    struct DiskFull: Error, CustomStringConvertible {
      var description: String { "the disk is read-only" }
    }
    let store = TestStore(initialState: App.State()) {
      App()
    } withDependencies: {
      $0[LocalWorkspaceDataClient.self] = LocalWorkspaceDataClient(remove: { _ in throw DiskFull() }
      )
    }
    await store.send(.forgetWorkspace)
    await store.receive(.editing(.workspace(.interruptAuthorizedWork)))
    await store.receive(.editing(.workspace(.delegate(.interrupted))))
    await store.receive(.editing(.content(.workspace(.interrupted))))
    await store.receiveModification {
      $0.notice = "could not remove the local copy of events: the disk is read-only"
    }
    await store.finish()
  }
}
