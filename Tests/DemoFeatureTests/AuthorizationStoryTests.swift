import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

/// Application stories on `makeWorkspaceDemoStore()`'s own store: losing authorization while
/// work runs, on the server or in the app, and signing out.
@MainActor
@Suite("Application stories: authorization lost, interrupted publication, sign-out")
struct AuthorizationStoryTests {
  let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

  @Test("Grant lost mid-publish → re-enter → retry: exactly one record, with the first key")
  func grantLostMidPublish() async throws {
    let system = DemoSystem()
    let credentials = DemoCredentials()
    let copies = DemoWorkingCopies()
    let arrival = Arrival()
    let held = LockIsolated(true)
    var workspace = DemoWorkspaceClient.demo(
      system: system, credentials: credentials, workingCopies: copies)
    let publish = workspace.publishProposal
    workspace.publishProposal = { source, baseline, changes, request in
      if held.current {
        arrival.fire()
        // The request is slow and honours cancellation: nothing reaches the server.
        try await TestClock().sleep(for: .seconds(1))
      }
      return try await publish(source, baseline, changes, request)
    }
    let story = AppStory(
      system: system, credentials: credentials, workingCopies: copies, workspace: workspace)
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.add(harbour))))

    let publication = story.start(.editing(.content(.propose(title: "Add Harbour Lights"))))
    await arrival.wait()
    guard case .publishing(let request) = story.state.editing.content.form else {
      Issue.record("expected a publishing form, got \(story.state.editing.content.form)")
      return
    }
    await story.send(.leaveAuthoring)
    await story.finish(publication)  // the interrupted publication
    // The form heard how its operation ended, and kept its request for the retry.
    #expect(story.state.editing.content.form == .interrupted(request))

    held.setValue(false)
    await story.send(.enterAuthoring)
    #expect(story.state.editing.authoring.context != nil)
    await story.send(.editing(.content(.retryProposal)))
    let proposals = await system.allProposals()
    #expect(proposals.count == 1)
    #expect(proposals.first?.idempotencyKey == request.idempotencyKey)
    #expect(story.state.editing.content.form.isPublished)
    #expect(story.issues.messages.isEmpty)
  }

  @Test("Grant lost while the record is being created: the record is reported, exactly one exists")
  func grantLostAfterTheRecord() async throws {
    let system = DemoSystem()
    let credentials = DemoCredentials()
    let copies = DemoWorkingCopies()
    let arrival = Arrival()
    let answer = Arrival()
    var workspace = DemoWorkspaceClient.demo(
      system: system, credentials: credentials, workingCopies: copies)
    let publish = workspace.publishProposal
    workspace.publishProposal = { source, baseline, changes, request in
      let record = try await publish(source, baseline, changes, request)
      arrival.fire()
      await answer.wait()  // the answer is on its way back, whatever happens here
      return record
    }
    let story = AppStory(
      system: system, credentials: credentials, workingCopies: copies, workspace: workspace)
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.add(harbour))))

    let publication = story.start(.editing(.content(.propose(title: "Add Harbour Lights"))))
    await arrival.wait()
    await story.send(.leaveAuthoring)
    answer.fire()
    await story.finish(publication)  // the publication past its commit point

    let proposals = await system.allProposals()
    #expect(proposals.count == 1)
    #expect(story.state.editing.content.proposals.map(\.id) == ["P1"])
    #expect(story.state.editing.content.form.isPublished)
    #expect(story.issues.messages.isEmpty)
  }

  @Test(
    "A grant revoked on the server fails the running form and drops the capability; the persisted grant stays"
  )
  func revokedOnServer() async {
    let story = AppStory()
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.add(harbour))))
    await story.system.revokeAllGrants()
    await story.send(.editing(.content(.propose(title: "Add Harbour Lights"))))

    guard case .failed(let request, let reason) = story.state.editing.content.form else {
      Issue.record("expected a failed form, got \(story.state.editing.content.form)")
      return
    }
    #expect(request.title == "Add Harbour Lights")
    #expect(reason == "authorization was lost; enter authoring again")
    #expect(story.state.editing.authoring.admission == .notAdmitted)
    #expect(story.credentials.capability.current == nil)
    // Revocation is not an identity change: the device keeps its grant until validation
    // rejects it at the next start.
    #expect(story.credentials.current.persistedGrant == adaContext.grant)
    #expect(
      story.state.editing.workspace.availability
        == readySession(events: seedEvents + [harbour], baseline: publishedR1))
    #expect(await story.system.allProposals().isEmpty)
    #expect(story.issues.messages.isEmpty)
  }

  @Test("Signing in as someone else invalidates the old grant before admitting the new person")
  func identityChange() async {
    let story = AppStory()
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.signIn(username: "grace", password: "hopper"))
    #expect(story.state.editing.authoring.context?.identity.rawValue == "grace")
    #expect(story.credentials.capability.current?.identity.rawValue == "grace")
    #expect(story.state.editing.workspace.availability.isReady)
    #expect(story.issues.messages.isEmpty)
  }

  @Test("Sign-out: the session ends, the capability and the device's grant go, the workspace stays")
  func signOut() async throws {
    let story = AppStory()
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.add(harbour))))
    await story.send(.signOut)

    #expect(story.state.session == nil)
    #expect(story.state.editing.authoring.admission == .notAdmitted)
    #expect(story.credentials.capability.current == nil)
    #expect(story.credentials.current.persistedGrant == nil)
    #expect(
      story.state.editing.workspace.availability
        == readySession(events: seedEvents + [harbour], baseline: publishedR1))
    // The server ended the session and its grant: nothing can be proposed with them.
    await #expect(throws: DemoError.sessionExpired) {
      _ = try await story.system.account(token: "session-1")
    }
    await story.send(.editing(.content(.propose(title: "Sneaky"))))
    #expect(await story.system.allProposals().isEmpty)
    #expect(story.issues.messages.isEmpty)
  }
}

extension ProposalForm {
  var isPublished: Bool {
    if case .published = self { true } else { false }
  }
}
