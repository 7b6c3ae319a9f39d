import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

/// Application stories on `makeWorkspaceDemoStore()`'s own store: entry and the proposal path.
@MainActor
@Suite("Application stories: entry, create, create, merge, create")
struct ProposalPathStoryTests {
  let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

  @Test("Entry: start, sign in, admission, preparation — ready at the published revision")
  func entry() async {
    let story = AppStory()
    await story.send(.start)
    await story.send(.signIn(username: "ada", password: "lovelace"))

    #expect(story.state.session == DemoSession(token: "session-1", username: "ada"))
    #expect(story.state.editing.authoring.admission == .admitted(adaContext))
    #expect(
      story.state.editing.workspace.availability
        == readySession(events: seedEvents, baseline: publishedR1))
    // The clients see exactly the capability Authoring validated.
    #expect(story.credentials.capability.current == adaContext)
    #expect(story.credentials.current.persistedGrant == adaContext.grant)
    #expect(story.issues.messages.isEmpty)
  }

  @Test("P1 and P2 against r1, P1 merged, Published refreshed to r2, P3 against r2")
  func createCreateMergeCreate() async throws {
    let story = AppStory()
    let system = story.system
    await story.send(.signIn(username: "ada", password: "lovelace"))

    // P1: add an event, preview it, propose it.
    await story.send(.editing(.content(.add(harbour))))
    await story.send(.editing(.content(.request(.captureChanges))))
    #expect(story.state.editing.content.preview == EventChangeSet(added: [harbour]))
    await story.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    let p1 = try #require(await system.allProposals().first)
    #expect(p1.id == "P1")
    #expect(p1.changes == EventChangeSet(added: [harbour]))
    #expect(p1.baseRevision == "r1")
    let p1Record = ProposalRecord(
      id: "P1", contentRevision: p1.contentRevision, target: publishedR1)
    #expect(story.state.editing.content.form == .published(p1Record))

    // Projection lag: the first listing misses P1; the form never showed a failure.
    await story.send(.listProposals)
    #expect(story.state.listedProposals.isEmpty)
    await story.send(.listProposals)
    #expect(story.state.listedProposals.map(\.id) == ["P1"])
    #expect(story.state.editing.workspace.session?.baseline == publishedR1)

    // P2: a fresh, independent proposal against the same revision.
    await story.send(.editing(.content(.startFreshProposal)))
    #expect(story.state.editing.workspace.session?.source.events == IdentifiedArray(seedEvents))
    await story.send(.editing(.content(.rename(id: "e2", title: "Winter Book Fair"))))
    await story.send(.editing(.content(.propose(title: "Rename Book Fair"))))
    let p2 = try #require(await system.allProposals().dropFirst().first)
    var renamed = seedEvents[1]
    renamed.title = "Winter Book Fair"
    #expect(p2.id == "P2")
    #expect(p2.changes == EventChangeSet(modified: [.init(before: seedEvents[1], after: renamed)]))
    #expect(p2.baseRevision == "r1")
    #expect(p2.contentRevision != p1.contentRevision)

    // The reviewer merges P1: Published moves to r2.
    await story.send(.merge(proposalID: "P1"))
    #expect(story.state.notice == "P1 merged: published@r2 is the new head")
    let head = try await system.head(of: "published")
    #expect(head.events == seedEvents + [harbour])

    // Refresh Published: only the baseline's revision moves; the working copy is untouched.
    await story.send(.refreshPublished)
    #expect(story.state.editing.workspace.session?.baseline == publishedR2)
    #expect(
      story.state.editing.workspace.session?.source.events[id: "e2"]?.title == "Winter Book Fair")

    // P3: a fresh proposal against r2.
    await story.send(.editing(.content(.startFreshProposal)))
    await story.send(.editing(.content(.remove(id: "e3"))))
    await story.send(.editing(.content(.propose(title: "Cancel Science Night"))))
    let proposals = await system.allProposals()
    let p3 = try #require(proposals.dropFirst(2).first)
    #expect(p3.id == "P3")
    #expect(p3.changes == EventChangeSet(removed: [seedEvents[2]]))
    #expect(p3.baseRevision == "r2")
    #expect(Set(proposals.map(\.idempotencyKey)).count == 3, "each attempt has its own key")
    #expect(story.state.editing.content.proposals.map(\.id) == ["P1", "P2", "P3"])
    #expect(
      story.state.editing.content.proposals.map(\.target) == [
        publishedR1, publishedR1, publishedR2,
      ])
    #expect(story.issues.messages.isEmpty)
  }

  @Test("Proposing with nothing changed makes no record")
  func noChanges() async {
    let story = AppStory()
    await story.send(.signIn(username: "ada", password: "lovelace"))
    await story.send(.editing(.content(.propose(title: "Nothing"))))
    #expect(story.state.editing.content.form == .noChanges)
    #expect(await story.system.allProposals().isEmpty)
    #expect(story.issues.messages.isEmpty)
  }

  @Test(
    "A proposal against a moved head is refused before any record; refresh, then retry with the same key"
  )
  func headMoved() async {
    let story = AppStory()
    let system = story.system
    await story.send(.signIn(username: "ada", password: "lovelace"))
    // Someone else's proposal lands first.
    let other = try? await system.createProposal(
      grantID: "grant-1", token: "session-1", key: .testKey(99), title: "Other",
      branch: "published", base: "r1", changes: EventChangeSet(removed: [seedEvents[0]]))
    _ = try? await system.merge(proposalID: other?.id ?? "")
    await story.send(.editing(.content(.add(harbour))))
    await story.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    guard case .failed(let request, let reason) = story.state.editing.content.form else {
      Issue.record("expected a failed form, got \(story.state.editing.content.form)")
      return
    }
    #expect(reason == "published moved from r1 to r2; refresh first")
    #expect(await system.allProposals().count == 1)
    #expect(story.state.editing.workspace.session?.baseline == publishedR1)

    await story.send(.refreshPublished)
    await story.send(.editing(.content(.retryProposal)))
    let proposals = await system.allProposals()
    #expect(proposals.count == 2)
    #expect(proposals.last?.idempotencyKey == request.idempotencyKey)
    #expect(proposals.last?.baseRevision == "r2")
    #expect(story.issues.messages.isEmpty)
  }
}
