import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

@MainActor
@Suite("Application stories: create, create, merge, create")
struct ProposalPathStoryTests {
  let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

  @Test("P1 and P2 against r1, P1 merged, Published refreshed to r2, P3 against r2")
  func createCreateMergeCreate() async throws {
    let system = DemoSystem(configuration: .init(projectionLag: 1))
    let store = makeStoryStore(system: system)
    store.exhaustivity = .off

    // Entry.
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    #expect(store.state.editing.workspace.availability == readySession(events: seedEvents, baseline: publishedR1))

    // P1: add an event.
    await store.send(.editing(.content(.add(harbour))))
    await store.send(.editing(.content(.request(.captureChanges))))
    await store.finish()
    #expect(store.state.editing.content.preview == EventChangeSet(added: [harbour]))
    await store.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    await store.finish()
    let p1 = await system.allProposals()[0]
    #expect(p1.id == "P1")
    #expect(p1.changes == EventChangeSet(added: [harbour]))
    #expect(p1.baseRevision == "r1")
    #expect(p1.idempotencyKey == .testKey(0))
    let p1Record = ProposalRecord(id: "P1", contentRevision: p1.contentRevision, target: publishedR1)
    #expect(store.state.editing.content.form == .published(p1Record))

    // Projection lag: the first listing misses P1; the form never showed a failure.
    await store.send(.listProposals)
    await store.finish()
    #expect(store.state.listedProposals.isEmpty)
    await store.send(.listProposals)
    await store.finish()
    #expect(store.state.listedProposals.map(\.id) == ["P1"])
    #expect(store.state.editing.workspace.session?.baseline == publishedR1)

    // P2: a fresh, independent proposal against the same revision.
    await store.send(.editing(.content(.startFreshProposal)))
    await store.finish()
    #expect(store.state.editing.workspace.session?.source.events == IdentifiedArray(seedEvents))
    await store.send(.editing(.content(.rename(id: "e2", title: "Winter Book Fair"))))
    await store.send(.editing(.content(.propose(title: "Rename Book Fair"))))
    await store.finish()
    let p2 = await system.allProposals()[1]
    var renamed = seedEvents[1]
    renamed.title = "Winter Book Fair"
    #expect(p2.id == "P2")
    #expect(p2.changes == EventChangeSet(modified: [.init(before: seedEvents[1], after: renamed)]))
    #expect(p2.baseRevision == "r1")
    #expect(p2.contentRevision != p1.contentRevision)

    // The reviewer merges P1: Published moves to r2.
    await store.send(.merge(proposalID: "P1"))
    await store.finish()
    #expect(store.state.notice == "P1 merged: published@r2 is the new head")
    let head = try await system.head(of: "published")
    #expect(head.events == seedEvents + [harbour])

    // Refresh Published: only the baseline's revision moves; the working copy is untouched.
    await store.send(.refreshPublished)
    await store.finish()
    #expect(store.state.editing.workspace.session?.baseline == publishedR2)
    #expect(store.state.editing.workspace.session?.source.events[id: "e2"]?.title == "Winter Book Fair")

    // P3: a fresh proposal against r2.
    await store.send(.editing(.content(.startFreshProposal)))
    await store.finish()
    await store.send(.editing(.content(.remove(id: "e3"))))
    await store.send(.editing(.content(.propose(title: "Cancel Science Night"))))
    await store.finish()
    let p3 = await system.allProposals()[2]
    #expect(p3.id == "P3")
    #expect(p3.changes == EventChangeSet(removed: [seedEvents[2]]))
    #expect(p3.baseRevision == "r2")
    #expect(store.state.editing.content.proposals.map(\.id) == ["P1", "P2", "P3"])
    #expect(store.state.editing.content.proposals.map(\.target) == [publishedR1, publishedR1, publishedR2])
  }

  @Test("Proposing with nothing changed makes no record")
  func noChanges() async {
    let system = DemoSystem()
    let store = makeStoryStore(system: system)
    store.exhaustivity = .off
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    await store.send(.editing(.content(.propose(title: "Nothing"))))
    await store.finish()
    #expect(store.state.editing.content.form == .noChanges)
    #expect(await system.allProposals().isEmpty)
  }

  @Test("A proposal against a moved head is refused before any record; refresh, then retry")
  func headMoved() async {
    let system = DemoSystem()
    let store = makeStoryStore(system: system)
    store.exhaustivity = .off
    await store.send(.signIn(username: "ada", password: "lovelace"))
    await store.finish()
    // Someone else's proposal lands first.
    let other = try? await system.createProposal(
      grantID: "grant-1", token: "session-1", key: .testKey(99), title: "Other",
      branch: "published", base: "r1", changes: EventChangeSet(removed: [seedEvents[0]]))
    _ = try? await system.merge(proposalID: other?.id ?? "")
    await store.send(.editing(.content(.add(harbour))))
    await store.send(.editing(.content(.propose(title: "Add Harbour Lights"))))
    await store.finish()
    guard case .failed(let request, let reason) = store.state.editing.content.form else {
      Issue.record("expected a failed form, got \(store.state.editing.content.form)")
      return
    }
    #expect(reason == "published moved from r1 to r2; refresh first")
    #expect(await system.allProposals().count == 1)
    #expect(store.state.editing.workspace.session?.baseline == publishedR1)

    await store.send(.refreshPublished)
    await store.finish()
    await store.send(.editing(.content(.retryProposal)))
    await store.finish()
    let proposals = await system.allProposals()
    #expect(proposals.count == 2)
    #expect(proposals.last?.idempotencyKey == request.idempotencyKey)
    #expect(proposals.last?.baseRevision == "r2")
  }
}
