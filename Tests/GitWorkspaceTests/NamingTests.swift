import ComposableWorkspace
import Foundation
import Testing
import WorkingCopySupport

@testable import GitWorkspace

@Suite("Naming")
struct NamingTests {
  @Test func baselineRefsNameTheBranchInOneComponentAndRoundTrip() {
    for branch: BranchName in ["main", "feature/x", "a%2Fb", "100%/done", "release/2026/q4"] {
      let ref = GitOperations.baselineRef(for: branch)
      #expect(!ref.dropFirst(GitOperations.baselineNamespace.count).contains("/"))
      #expect(GitOperations.branch(fromBaselineRef: ref) == branch)
    }
  }

  @Test func workspaceDirectoriesAreDistinctSafeNames() {
    let ids: [WorkspaceID] = ["events", "../up", "a/b", "a%2Fb", ".hidden", "", "été"]
    let names = ids.map(\.directoryName)
    #expect(
      names == ["events", "%2E.%2Fup", "a%2Fb", "a%252Fb", "%2Ehidden", "%", "%C3%A9t%C3%A9"])
    #expect(Set(names).count == ids.count)
  }

  @Test func proposalMessagesCarryTheTrailers() {
    let attempt = ProposalAttempt(
      key: UUID(uuidString: "00000000-0000-0000-0000-0000000000AA") ?? UUID(),
      namespace: "refs/proposals", branch: "main", base: "b", tree: "t"
    )
    #expect(attempt.proposalRef == "refs/proposals/00000000-0000-0000-0000-0000000000aa")
    let message = attempt.message(
      for: ProposalRequest(title: "Fix\nthe title", summary: "  Body.\n", idempotencyKey: UUID())
    )
    #expect(
      message == """
        Fix the title

        Body.

        Proposal-Key: 00000000-0000-0000-0000-0000000000aa
        Proposal-Target: main

        """
    )
  }
}
