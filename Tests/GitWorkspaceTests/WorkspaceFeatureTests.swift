import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

/// The `Workspace` feature itself, driven by the live Git client.
@MainActor
@Suite("Workspace feature on Git", .requires(.git))
struct WorkspaceFeatureTests {
  typealias GitFeature = Workspace<GitWorkingCopy, GitChangeSet>

  @Test func prepareEditPublishThenAMovedHead() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let client = harness.git.client
    let store = TestStore(
      initialState: WorkspaceState<GitWorkingCopy>(id: "story"),
      reducer: { GitFeature(publicationRetry: .none) },
      withDependencies: { $0[WorkspaceClient<GitWorkingCopy, GitChangeSet>.self] = client },
      timeout: .seconds(20)
    )

    let baseline = WorkspaceBranchReference(
      branch: "main", revision: try await harness.remote.head(of: "main"))
    let session = WorkspaceSession(
      source: harness.git.workingCopy(for: "story"), baseline: baseline)
    await store.send(.prepareSource) { $0.availability = .preparing }
    await store.receiveModification { $0.availability = .ready(session) }

    try append("from the story\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    await store.send(.publishProposal(request("Story")))
    await store.receive(matching: { action in
      guard case .delegate(.publication(.published(let record))) = action else { return false }
      return record.target == baseline
    })

    let moved = try await harness.remote.commit(on: "main")
    await store.send(.publishProposal(request("After the move")))
    await store.receive(
      .delegate(
        .publication(
          .headMoved(
            WorkspaceHeadMismatch(
              expected: baseline, actual: .init(branch: "main", revision: moved))))
      )
    )

    await store.send(.refreshBaseline)
    await store.receiveModification {
      $0.availability = .ready(
        WorkspaceSession(source: session.source, baseline: .init(branch: "main", revision: moved)))
    }
    await store.finish()
    #expect(try await harness.remote.proposalRefs().count == 1)
  }
}
