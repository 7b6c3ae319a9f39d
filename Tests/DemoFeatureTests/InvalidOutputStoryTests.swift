import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

/// Invalid client output is reported as an issue and never becomes UI state.
@MainActor
@Suite("Application stories: invalid integrator output")
struct InvalidOutputStoryTests {
  let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

  @Test(
    "A refresh that answers another branch: reported, nothing installed, nothing kept in the notice"
  )
  func refreshAnswersAnotherBranch() async {
    let system = DemoSystem()
    let credentials = DemoCredentials()
    let copies = DemoWorkingCopies()
    var workspace = DemoWorkspaceClient.demo(
      system: system, credentials: credentials, workingCopies: copies)
    workspace.refreshBaseline = { source, _ in
      WorkspaceSession(
        source: source, baseline: WorkspaceBranchReference(branch: "festival", revision: "r1"))
    }
    let story = AppStory(
      system: system, credentials: credentials, workingCopies: copies, workspace: workspace)
    await story.send(.signIn(username: "ada", password: "lovelace"))

    await story.send(.refreshPublished)
    #expect(story.state.notice == nil)
    #expect(
      story.state.editing.workspace.availability
        == readySession(events: seedEvents, baseline: publishedR1))
    #expect(story.issues.messages.count == 1)
    #expect(
      story.issues.messages.first?.contains("refreshBaseline must keep the branch identity") == true
    )
  }

  @Test(
    "A record with a wrong target: reported, the form knows a record exists, nothing of it is kept")
  func recordWithWrongTarget() async {
    let system = DemoSystem()
    let credentials = DemoCredentials()
    let copies = DemoWorkingCopies()
    var workspace = DemoWorkspaceClient.demo(
      system: system, credentials: credentials, workingCopies: copies)
    let publish = workspace.publishProposal
    workspace.publishProposal = { source, baseline, changes, request in
      var record = try await publish(source, baseline, changes, request)
      record.target = WorkspaceBranchReference(branch: "published", revision: "r9")
      return record
    }
    let story = AppStory(
      system: system, credentials: credentials, workingCopies: copies, workspace: workspace)
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.add(harbour))))

    await story.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    guard case .unconfirmed(let request) = story.state.editing.content.form else {
      Issue.record("expected an unconfirmed form, got \(story.state.editing.content.form)")
      return
    }
    #expect(request.title == "Add Harbour Lights")
    #expect(story.state.editing.content.proposals.isEmpty)
    #expect(story.state.notice == nil)
    // The attempt is over: retrying is not offered (it would publish the attempt again).
    #expect(story.state.editing.content.form.retryableRequest == nil)
    #expect(await system.allProposals().count == 1)
    #expect(story.issues.messages.count == 1)
    #expect(story.issues.messages.first?.contains("published@r9") == true)
  }
}
