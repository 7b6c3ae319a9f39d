import ComposableCore
import WorkspaceDemoFeature

/// `demo_walk_ms`: the whole create-create-merge-create walk on the in-memory system, through
/// `makeWorkspaceDemoStore()` (the graph `demo-cli` runs): sign in, admission, preparation, an
/// edit and P1, a fresh edit and P2, the merge of P1, the refresh, a fresh edit and P3. Each
/// action's task is awaited, as the CLI does.
@MainActor
func benchmarkDemoWalk(repetitions: Int) async throws -> Summary {
  try await measure(repetitions: repetitions) {
    let system = DemoSystem()
    let store = makeWorkspaceDemoStore(.inMemory(system: system))
    let elapsed = await time {
      for action in walk { await store.send(action).finish() }
    }
    let proposals = await system.allProposals()
    try check(
      proposals.map(\.id) == ["P1", "P2", "P3"]
        && proposals.map(\.baseRevision) == ["r1", "r1", "r2"],
      "the demo walk made \(proposals.map { "\($0.id)@\($0.baseRevision)" })")
    return elapsed.milliseconds
  }
}

private let harbour = Event(id: "e4", title: "Harbour Lights", date: "2027-03-13", venue: "Quay")

private let walk: [WorkspaceDemoFeature.Action] = [
  .start,
  .signIn(username: "ada", password: "lovelace"),
  .editing(.content(.add(harbour))),
  .editing(.content(.propose(title: "Add Harbour Lights"))),
  .editing(.content(.startFreshProposal)),
  .editing(.content(.rename(id: "e2", title: "Winter Book Fair"))),
  .editing(.content(.propose(title: "Rename Book Fair"))),
  .merge(proposalID: "P1"),
  .refreshPublished,
  .editing(.content(.startFreshProposal)),
  .editing(.content(.remove(id: "e3"))),
  .editing(.content(.propose(title: "Cancel Science Night"))),
]
